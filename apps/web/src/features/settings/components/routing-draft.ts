import { findProviderModel, MODELS, PROVIDER_IDS, type ProviderId } from '@conductor/shared';
import type { RoutingPolicy, RoutingStrategy } from '@conductor/shared/openai/chat';
import { AccountRoutingPolicy } from '@conductor/shared/schemas/routing';

/** The routing form's state: weights stay text while typed, and are kept when the strategy changes. */
export interface DraftTarget {
  key: number;
  provider: ProviderId;
  model: string;
  weight: string;
}

export interface RoutingDraft {
  strategy: RoutingStrategy;
  targets: DraftTarget[];
}

/** A problem with the draft: the message, and the target (0-based) and field it is about, if any. */
export interface RoutingProblem {
  message: string;
  target?: number;
  field?: 'model' | 'weight';
}

let nextKey = 0;
const newKey = () => {
  nextKey += 1;
  return nextKey;
};

export const modelsOf = (provider: ProviderId) => MODELS.filter((model) => model.provider === provider);

/** The saved policy as a draft; target models read as their catalogue ids, so the model select shows them. */
export function toDraft(policy: RoutingPolicy | null): RoutingDraft {
  if (!policy) return { strategy: 'single', targets: [] };
  return {
    strategy: policy.strategy,
    targets: (policy.targets ?? []).map((target) => ({
      key: newKey(),
      provider: target.provider,
      model: findProviderModel(target.provider, target.model)?.id ?? target.model,
      weight: target.weight === undefined ? '' : String(target.weight),
    })),
  };
}

/** What Save sends. Single model without targets is the built-in default, so it is sent as none. */
export function toPolicy(draft: RoutingDraft): RoutingPolicy | null {
  if (draft.strategy === 'single' && draft.targets.length === 0) return null;
  if (draft.targets.length === 0) return { strategy: draft.strategy };
  return {
    strategy: draft.strategy,
    targets: draft.targets.map(({ provider, model, weight }) =>
      draft.strategy === 'loadbalance' && weight.trim() !== '' ? { provider, model, weight: Number(weight) } : { provider, model },
    ),
  };
}

/** A new target: the first catalogue model not listed yet, trying the last target's provider first. */
export function newTarget(targets: DraftTarget[]): DraftTarget {
  const listed = new Set(targets.map((target) => `${target.provider}/${target.model}`));
  const last = targets.at(-1)?.provider;
  const providers = last ? [last, ...PROVIDER_IDS.filter((provider) => provider !== last)] : PROVIDER_IDS;
  const model =
    providers.flatMap((provider) => modelsOf(provider)).find((entry) => !listed.has(`${entry.provider}/${entry.id}`)) ?? MODELS[0];
  return { key: newKey(), provider: model?.provider ?? 'openai', model: model?.id ?? 'gpt-4o', weight: '' };
}

/**
 * A problem from an issue path (`targets.1.model`, or the API's `policy.targets.1.model`): the
 * message names the target it is about, unless it already does.
 */
function problem(message: string, path: readonly PropertyKey[] | string): RoutingProblem {
  const parts = typeof path === 'string' ? path.split('.') : path.map(String);
  const at = parts.indexOf('targets');
  const target = at === -1 ? Number.NaN : Number(parts[at + 1]);
  if (!Number.isInteger(target)) return { message };
  const field = parts[at + 2];
  return {
    message: message.startsWith('Target ') ? message : `Target ${target + 1}: ${message}`,
    target,
    ...(field === 'model' || field === 'weight' ? { field } : {}),
  };
}

/** The first problem the shared schema finds (the same rules as the server), or null. */
export function checkPolicy(policy: RoutingPolicy | null): RoutingProblem | null {
  if (!policy) return null;
  const parsed = AccountRoutingPolicy.safeParse(policy);
  const issue = parsed.success ? undefined : parsed.error.issues[0];
  if (!issue) return null;
  return problem(issue.message, issue.path);
}

/** A 400 from the API as a problem: the first field's own message, without the "Invalid body field" prefix. */
export function problemFromFields(message: string, fields: Record<string, string> | undefined): RoutingProblem {
  const [path, fieldMessage] = Object.entries(fields ?? {})[0] ?? [];
  if (!path || !fieldMessage) return { message };
  return problem(fieldMessage, path);
}
