import { MODELS, type ModelInfo } from '@conductor/shared';
import type { RoutingPolicy } from '@conductor/shared/openai/chat';
import { type PolicySource, resolveTargetModel } from './policy.ts';

export interface WeightedModel {
  model: ModelInfo;
  weight: number;
}

export interface PlanInput {
  policy: RoutingPolicy;
  /** The body's model; may be undefined only when the policy lists its own targets. */
  requested: ModelInfo | undefined;
  /** Whether a key is available for this model's provider (always true in the sandbox). */
  available(model: ModelInfo): boolean;
  /** Whether this model's upstream circuit is not open. */
  healthy(model: ModelInfo): boolean;
  /** Whether this model can serve the request at all (its `response_format`); every model when absent. */
  serves?(model: ModelInfo): boolean;
  /** Where the policy came from, to name a bad target there. */
  source?: PolicySource;
  random?: () => number;
}

/** The most targets one request may walk through. */
export const MAX_TARGETS = 4;

/** Price used to rank targets: input plus output USD per 1M tokens. */
export function blendedPrice(model: ModelInfo): number {
  return model.inputPerMillion + model.outputPerMillion;
}

const byPrice = (left: WeightedModel, right: WeightedModel) => blendedPrice(left.model) - blendedPrice(right.model);

/** The same model served by other providers (e.g. gpt-4o on OpenAI and on Azure). */
function sameModel(requested: ModelInfo): ModelInfo[] {
  return MODELS.filter((model) => model.upstreamModel === requested.upstreamModel);
}

function sameClass(requested: ModelInfo): ModelInfo[] {
  return MODELS.filter((model) => model.modelClass === requested.modelClass);
}

/** Candidate targets before ordering: the policy's own, else derived from the requested model. */
function candidates(policy: RoutingPolicy, requested: ModelInfo | undefined, source: PolicySource | undefined): WeightedModel[] {
  if (policy.targets) {
    // A model listed twice (or by an alias and its own name) is one target: calling it again at
    // once would ignore the Retry-After it just answered. Its weights add up.
    const byModel = new Map<string, WeightedModel>();
    policy.targets.forEach((target, index) => {
      const model = resolveTargetModel(target, index, source);
      const listed = byModel.get(model.id);
      if (listed) listed.weight += target.weight ?? 1;
      else byModel.set(model.id, { model, weight: target.weight ?? 1 });
    });
    return [...byModel.values()];
  }
  if (!requested) return [];
  const weighted = (model: ModelInfo): WeightedModel => ({ model, weight: 1 });
  switch (policy.strategy) {
    case 'single':
      return [weighted(requested)];
    case 'fallback': {
      // The requested model first, then the cheapest same-class models of other providers.
      const others = sameClass(requested)
        .filter((model) => model.provider !== requested.provider)
        .map(weighted)
        .sort(byPrice);
      return [weighted(requested), ...others];
    }
    case 'loadbalance':
      return sameModel(requested).map(weighted);
    case 'cost':
      return sameClass(requested).map(weighted);
  }
}

/** Weighted random order without replacement. */
function weightedOrder(targets: WeightedModel[], random: () => number): WeightedModel[] {
  const pool = [...targets];
  const ordered: WeightedModel[] = [];
  while (pool.length > 0) {
    const total = pool.reduce((sum, target) => sum + target.weight, 0);
    let point = random() * total;
    let index = pool.findIndex((target) => {
      point -= target.weight;
      return point < 0;
    });
    if (index === -1) index = pool.length - 1;
    ordered.push(...pool.splice(index, 1));
  }
  return ordered;
}

/**
 * The ordered targets for one request. `fallback`/`single` keep the listed order, `loadbalance`
 * draws by weight, `cost` ranks cheapest first. Targets without a key are dropped; targets
 * whose circuit is open move to the end (still tried if everything else fails). Candidates that
 * cannot serve the request (`serves`) are set apart first, as `unsupported`.
 */
export function planTargets(input: PlanInput): { targets: WeightedModel[]; unavailable: WeightedModel[]; unsupported: WeightedModel[] } {
  const random = input.random ?? Math.random;
  const { serves } = input;
  let all = candidates(input.policy, input.requested, input.source);
  const unsupported = serves ? all.filter((target) => !serves(target.model)) : [];
  if (unsupported.length > 0) all = all.filter((target) => !unsupported.includes(target));
  const unavailable = all.filter((target) => !input.available(target.model));
  let usable = all.filter((target) => input.available(target.model));
  if (input.policy.strategy === 'single') usable = usable.slice(0, 1);
  else if (input.policy.strategy === 'loadbalance') usable = weightedOrder(usable, random);
  else if (input.policy.strategy === 'cost') usable = [...usable].sort(byPrice);
  const healthy = usable.filter((target) => input.healthy(target.model));
  const unhealthy = usable.filter((target) => !input.healthy(target.model));
  return { targets: [...healthy, ...unhealthy].slice(0, MAX_TARGETS), unavailable, unsupported };
}
