import { describe, expect, it } from 'vitest';
import { planLabel } from './auth';

describe('planLabel', () => {
  it('capitalises the plan and names byo-keys in full', () => {
    expect(planLabel('free')).toBe('Free');
    expect(planLabel('enterprise')).toBe('Enterprise');
    expect(planLabel('byo-keys')).toBe('Bring Your Own Keys');
  });
});
