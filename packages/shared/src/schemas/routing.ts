import { z } from 'zod';
import { findProviderModel } from '../constants/models.ts';
import { PROVIDER_NAMES } from '../constants/providers.ts';
import { RouteTarget, RoutingPolicy, RoutingStrategy } from '../openai/chat.ts';

/** The account's default routing policy: the dashboard's Routing settings and `/api/v1/settings/routing`. */

/** In the order the dashboard offers them: the built-in default first. */
export const ROUTING_STRATEGIES: readonly RoutingStrategy[] = ['single', 'fallback', 'loadbalance', 'cost'];

export const ROUTING_STRATEGY_LABELS: Record<RoutingStrategy, string> = {
  single: 'Single model',
  fallback: 'Fallback',
  loadbalance: 'Load balance',
  cost: 'Cost',
};

/** One line each: what the strategy does with the targets. */
export const ROUTING_STRATEGY_DESCRIPTIONS: Record<RoutingStrategy, string> = {
  single: 'Sends each request to one model and never fails over.',
  fallback: 'Tries the targets in order, moving on when a provider fails, times out or rate-limits.',
  loadbalance: 'Spreads requests across the targets at random, in proportion to their weights.',
  cost: 'Tries the cheapest target first (input plus output price), then the next cheapest.',
};

/** What each strategy does with no targets listed: it works from the model the request names. */
export const ROUTING_WITHOUT_TARGETS: Record<RoutingStrategy, string> = {
  single: 'The model each request names.',
  fallback: 'The requested model, then the cheapest models of the same class at other providers.',
  loadbalance: 'The requested model at every provider that serves it.',
  cost: 'Every model of the requested model’s class, cheapest first.',
};

/** A policy lists at most this many targets (the same limit as the `conductor` request member). */
export const MAX_ROUTING_TARGETS = 8;

export const ROUTING_SAVED = 'Routing default saved';
export const ROUTING_CLEARED = 'Routing default cleared';

const WEIGHT_RANGE = 'weight must be a number greater than 0 and at most 1000.';
const AccountRouteTarget = RouteTarget.extend({
  model: z.string().min(1, 'Choose a model.').max(128),
  weight: z.number({ error: WEIGHT_RANGE }).positive(WEIGHT_RANGE).max(1000, WEIGHT_RANGE).optional(),
}).strict();

/**
 * The `conductor` policy with the rules an account default must also meet: every target is a
 * model its provider serves, no model is listed twice, weights only with Load balance, one
 * target for Single model and at least two for the others (or none, to follow the request).
 */
export const AccountRoutingPolicy = z
  .object(
    {
      strategy: RoutingStrategy,
      targets: z
        .array(AccountRouteTarget)
        .min(1, 'List at least one target, or leave targets out to follow the model each request names.')
        .max(MAX_ROUTING_TARGETS, `A routing policy lists at most ${MAX_ROUTING_TARGETS} targets.`)
        .optional(),
    },
    { error: (issue) => (issue.code === 'invalid_type' ? 'policy must be a routing policy, or null for no account default.' : undefined) },
  )
  .strict()
  .superRefine((policy, context) => {
    const targets = policy.targets ?? [];
    const seen = new Map<string, number>();
    targets.forEach((target, index) => {
      const name = `Target ${index + 1} (${target.provider}/${target.model})`;
      const model = findProviderModel(target.provider, target.model);
      if (!model) {
        context.addIssue({
          code: 'custom',
          path: ['targets', index, 'model'],
          message: `${name} is not a model served by ${PROVIDER_NAMES[target.provider]}.`,
        });
      } else if (seen.has(model.id)) {
        context.addIssue({
          code: 'custom',
          path: ['targets', index, 'model'],
          message: `${name} repeats target ${(seen.get(model.id) ?? 0) + 1}: list each model once.`,
        });
      } else {
        seen.set(model.id, index);
      }
      if (target.weight !== undefined && policy.strategy !== 'loadbalance') {
        context.addIssue({
          code: 'custom',
          path: ['targets', index, 'weight'],
          message: `Target ${index + 1} has a weight, but weights apply only to Load balance: remove it or choose Load balance.`,
        });
      }
    });
    if (policy.strategy === 'single' && targets.length > 1) {
      context.addIssue({
        code: 'custom',
        path: ['targets'],
        message: 'Single model uses one target: remove the others, or choose Fallback, Load balance or Cost.',
      });
    }
    if (policy.strategy !== 'single' && targets.length === 1) {
      context.addIssue({
        code: 'custom',
        path: ['targets'],
        message: `${ROUTING_STRATEGY_LABELS[policy.strategy]} needs at least two targets, or none to follow the model each request names.`,
      });
    }
  });

/** `PUT /api/v1/settings/routing`: `null` removes the account default (requests then use `single`). */
export const RoutingSettingsInput = z.object({ policy: AccountRoutingPolicy.nullable() }).strict();
export type RoutingSettingsInput = z.infer<typeof RoutingSettingsInput>;

export const RoutingSettings = z.object({ policy: RoutingPolicy.nullable() });
export type RoutingSettings = z.infer<typeof RoutingSettings>;
