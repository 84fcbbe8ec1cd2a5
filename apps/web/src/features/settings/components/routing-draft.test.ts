import { describe, expect, it } from 'vitest';
import { checkPolicy, newTarget, problemFromFields, toDraft, toPolicy } from './routing-draft';

describe('routing draft', () => {
  it('reads a saved policy with catalogue ids and sends it back the same', () => {
    const draft = toDraft({ strategy: 'loadbalance', targets: [{ provider: 'azure', model: 'gpt-4o', weight: 3 }] });
    expect(draft.targets[0]).toMatchObject({ provider: 'azure', model: 'azure-gpt-4o', weight: '3' });
    expect(toPolicy(draft)).toEqual({ strategy: 'loadbalance', targets: [{ provider: 'azure', model: 'azure-gpt-4o', weight: 3 }] });
  });

  it('sends Single model without targets as no default, and weights only with Load balance', () => {
    expect(toPolicy(toDraft(null))).toBeNull();
    expect(toPolicy({ strategy: 'cost', targets: [] })).toEqual({ strategy: 'cost' });
    const targets = [{ key: 1, provider: 'openai' as const, model: 'gpt-4o', weight: '2' }];
    expect(toPolicy({ strategy: 'fallback', targets })).toEqual({
      strategy: 'fallback',
      targets: [{ provider: 'openai', model: 'gpt-4o' }],
    });
  });

  it('adds a model not listed yet', () => {
    const first = newTarget([]);
    const second = newTarget([first]);
    expect(`${second.provider}/${second.model}`).not.toBe(`${first.provider}/${first.model}`);
  });

  it('finds the shared schema’s problems and says which target and field', () => {
    expect(checkPolicy(null)).toBeNull();
    expect(
      checkPolicy({
        strategy: 'fallback',
        targets: [
          { provider: 'openai', model: 'gpt-4o' },
          { provider: 'openai', model: 'gpt-4o' },
        ],
      }),
    ).toEqual({ message: 'Target 2 (openai/gpt-4o) repeats target 1: list each model once.', target: 1, field: 'model' });
    expect(
      checkPolicy({
        strategy: 'loadbalance',
        targets: [
          { provider: 'openai', model: 'gpt-4o', weight: 0 },
          { provider: 'azure', model: 'azure-gpt-4o' },
        ],
      }),
    ).toEqual({ message: 'Target 1: weight must be a number greater than 0 and at most 1000.', target: 0, field: 'weight' });
    expect(checkPolicy({ strategy: 'single', targets: newTargets(2) })?.message).toMatch(/^Single model uses one target/);
  });

  it('reads the API’s field errors', () => {
    expect(
      problemFromFields('Invalid body field…', { 'policy.targets.0.model': 'Target 1 (openai/x) is not a model served by OpenAI.' }),
    ).toEqual({ message: 'Target 1 (openai/x) is not a model served by OpenAI.', target: 0, field: 'model' });
    expect(problemFromFields('Sign in to continue.', undefined)).toEqual({ message: 'Sign in to continue.' });
  });
});

function newTargets(count: number) {
  const list: ReturnType<typeof newTarget>[] = [];
  for (let index = 0; index < count; index += 1) list.push(newTarget(list));
  return list.map(({ provider, model }) => ({ provider, model }));
}
