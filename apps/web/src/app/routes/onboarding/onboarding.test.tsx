import type { PublicUser } from '@conductor/shared';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clientLoader } from './onboarding';

const requireUser = vi.fn();
vi.mock('~/lib/guards', () => ({ requireUser: () => requireUser() }));

const user = (onboardingCompleted: boolean) => ({ id: 'u1', name: 'Ada Lovelace', onboardingCompleted }) as PublicUser;

describe('onboarding route loader', () => {
  beforeEach(() => requireUser.mockReset());

  it('shows the wizard while onboarding is open', async () => {
    requireUser.mockResolvedValue(user(false));
    await expect(clientLoader()).resolves.toEqual({ user: user(false) });
  });

  it('sends a user who has finished onboarding to the dashboard', async () => {
    requireUser.mockResolvedValue(user(true));
    const thrown = await clientLoader().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get('Location')).toBe('/dashboard');
  });
});
