import { findProviderModel, type ModelInfo } from '@conductor/shared';
import { RoutingPolicy, RoutingStrategy, type RouteTarget } from '@conductor/shared/openai/chat';
import { ROUTING_HEADER } from '@conductor/shared/openai/models';
import { GatewayError } from '../gateway-error.ts';

export type PolicySource = 'header' | 'body' | 'account' | 'default';

export interface ResolvedPolicy {
  policy: RoutingPolicy;
  source: PolicySource;
}

const DEFAULT_POLICY: RoutingPolicy = { strategy: 'single' };

function invalidHeader(detail: string): GatewayError {
  return new GatewayError(
    400,
    'invalid_request_error',
    'invalid_routing_policy',
    `Invalid ${ROUTING_HEADER} header: ${detail}. Send a strategy name (fallback, loadbalance, cost, single) or JSON like {"strategy":"fallback","targets":[{"provider":"openai","model":"gpt-4o"}]}.`,
    { param: ROUTING_HEADER },
  );
}

/** `x-conductor-routing`: a bare strategy name or the JSON of a routing policy. */
export function parseRoutingHeader(value: string): RoutingPolicy {
  const text = value.trim();
  const strategy = RoutingStrategy.safeParse(text);
  if (strategy.success) return { strategy: strategy.data };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalidHeader('not a strategy name nor JSON');
  }
  const parsed = RoutingPolicy.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalidHeader(`${issue?.path.join('.') || 'policy'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

/** Precedence: the request's header, then its body extension, then the account's default, then `single`. */
export function resolvePolicy(header: string | undefined, body: RoutingPolicy | undefined, accountDefault: unknown): ResolvedPolicy {
  if (header !== undefined && header !== '') return { policy: parseRoutingHeader(header), source: 'header' };
  if (body) return { policy: body, source: 'body' };
  if (accountDefault) {
    const parsed = RoutingPolicy.safeParse(accountDefault);
    if (parsed.success) return { policy: parsed.data, source: 'account' };
  }
  return { policy: DEFAULT_POLICY, source: 'default' };
}

/**
 * A routing target's model: a catalogue id or alias of that provider, or the provider's own
 * upstream name (`{provider: 'azure', model: 'gpt-4o'}` is `azure-gpt-4o`). A target that is
 * neither is refused, named where the policy came from (the header, the body, or the account's
 * default, which may have been saved before the catalogue changed).
 */
export function resolveTargetModel(target: RouteTarget, index: number, source: PolicySource = 'body'): ModelInfo {
  const model = findProviderModel(target.provider, target.model);
  if (model) return model;
  const where =
    source === 'header'
      ? ` in the ${ROUTING_HEADER} header`
      : source === 'account'
        ? " in your account's default routing policy (Settings)"
        : '';
  throw new GatewayError(
    400,
    'invalid_request_error',
    'invalid_routing_target',
    `Routing target ${index + 1}${where} (${target.provider}/${target.model}) is not a model served by ${target.provider}. GET /v1/models lists them.`,
    { param: source === 'header' ? ROUTING_HEADER : source === 'account' ? null : `conductor.targets.${index}` },
  );
}
