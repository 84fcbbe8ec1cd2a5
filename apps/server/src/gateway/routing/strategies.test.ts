import { findModel, type ModelInfo } from '@conductor/shared';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../gateway-error.ts';
import { parseRoutingHeader, resolvePolicy } from './policy.ts';
import { planTargets } from './strategies.ts';

const model = (id: string) => findModel(id) as ModelInfo;
const all = () => true;
const ids = (plan: ReturnType<typeof planTargets>) => plan.targets.map((target) => target.model.id);

describe('planTargets', () => {
  it('single: the requested model only', () => {
    expect(ids(planTargets({ policy: { strategy: 'single' }, requested: model('gpt-4'), available: all, healthy: all }))).toEqual([
      'gpt-4-turbo',
    ]);
  });

  it('fallback: the listed order; derived: the requested model, then the cheapest of its class elsewhere', () => {
    const listed = planTargets({
      policy: {
        strategy: 'fallback',
        targets: [
          { provider: 'anthropic', model: 'claude-3-5-haiku' },
          { provider: 'azure', model: 'gpt-4o-mini' },
        ],
      },
      requested: undefined,
      available: all,
      healthy: all,
    });
    expect(ids(listed)).toEqual(['claude-3-5-haiku', 'azure-gpt-4o-mini']);
    const derived = planTargets({ policy: { strategy: 'fallback' }, requested: model('gpt-4o'), available: all, healthy: all });
    expect(ids(derived)[0]).toBe('gpt-4o');
    expect(ids(derived)[1]).toBe('gemini-1.5-pro');
    expect(derived.targets.every((target, index) => index === 0 || target.model.provider !== 'openai')).toBe(true);
  });

  it('cost: cheapest first among the models with a key; open circuits go last', () => {
    const available = (candidate: ModelInfo) => candidate.provider !== 'google';
    expect(ids(planTargets({ policy: { strategy: 'cost' }, requested: model('gpt-4o-mini'), available, healthy: all }))[0]).toBe(
      'gpt-4o-mini',
    );
    const healthy = (candidate: ModelInfo) => candidate.provider !== 'openai';
    const plan = planTargets({ policy: { strategy: 'cost' }, requested: model('gpt-4o-mini'), available, healthy });
    const providers = plan.targets.map((target) => target.model.provider);
    // azure-gpt-4o-mini and command-r tie at $0.75; the catalogue order breaks the tie.
    expect(providers[0]).toBe('azure');
    const firstOpen = providers.indexOf('openai');
    expect(firstOpen === -1 || providers.slice(firstOpen).every((provider) => provider === 'openai')).toBe(true);
  });

  it('loadbalance: weighted draw without replacement', () => {
    const policy = {
      strategy: 'loadbalance' as const,
      targets: [
        { provider: 'openai' as const, model: 'gpt-4o', weight: 3 },
        { provider: 'azure' as const, model: 'gpt-4o', weight: 1 },
      ],
    };
    expect(ids(planTargets({ policy, requested: undefined, available: all, healthy: all, random: () => 0.7 }))).toEqual([
      'gpt-4o',
      'azure-gpt-4o',
    ]);
    expect(ids(planTargets({ policy, requested: undefined, available: all, healthy: all, random: () => 0.8 }))).toEqual([
      'azure-gpt-4o',
      'gpt-4o',
    ]);
  });

  it('drops targets without a key and reports them', () => {
    const plan = planTargets({
      policy: {
        strategy: 'fallback',
        targets: [
          { provider: 'cohere', model: 'command-r' },
          { provider: 'openai', model: 'gpt-4o-mini' },
        ],
      },
      requested: undefined,
      available: (candidate) => candidate.provider === 'openai',
      healthy: all,
    });
    expect(ids(plan)).toEqual(['gpt-4o-mini']);
    expect(plan.unavailable.map((target) => target.model.id)).toEqual(['command-r']);
  });

  it('refuses a target that the provider does not serve', () => {
    expect(() =>
      planTargets({
        policy: { strategy: 'fallback', targets: [{ provider: 'anthropic', model: 'gpt-4o' }] },
        requested: undefined,
        available: all,
        healthy: all,
      }),
    ).toThrowError(GatewayError);
  });
});

describe('routing policy', () => {
  it('reads a strategy name or JSON from the header', () => {
    expect(parseRoutingHeader(' cost ')).toEqual({ strategy: 'cost' });
    expect(parseRoutingHeader('{"strategy":"fallback","targets":[{"provider":"openai","model":"gpt-4o"}]}')).toEqual({
      strategy: 'fallback',
      targets: [{ provider: 'openai', model: 'gpt-4o' }],
    });
    expect(() => parseRoutingHeader('{"strategy":"fastest"}')).toThrowError(/x-conductor-routing/);
  });

  it('takes the header over the body over the account default', () => {
    expect(resolvePolicy('cost', { strategy: 'fallback' }, { strategy: 'loadbalance' }).source).toBe('header');
    expect(resolvePolicy(undefined, { strategy: 'fallback' }, { strategy: 'loadbalance' }).source).toBe('body');
    expect(resolvePolicy(undefined, undefined, { strategy: 'loadbalance' })).toEqual({
      policy: { strategy: 'loadbalance' },
      source: 'account',
    });
    expect(resolvePolicy(undefined, undefined, { strategy: 'nonsense' })).toEqual({ policy: { strategy: 'single' }, source: 'default' });
  });
});
