import type { PublicUser } from '@conductor/shared';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { requireOnboardedUser, requireUser } from './guards';

const loadSession = vi.fn();
vi.mock('./auth', () => ({ loadSession: () => loadSession() }));

const signedIn = (onboardingCompleted: boolean) => ({
  isAuthenticated: true,
  user: { id: 'u1', onboardingCompleted } as PublicUser,
});
const request = (path: string) => new Request(`https://conductor.test${path}`);

/** The redirect a guard throws: its Location. */
async function redirectOf(guard: Promise<unknown>): Promise<string | null> {
  try {
    await guard;
    return null;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.headers.get('Location');
    throw thrown;
  }
}

const BILLING = '/dashboard/billing?plan=pro&period=monthly';

describe('guards', () => {
  beforeEach(() => loadSession.mockReset());

  it('sends a visitor to sign in, naming the dashboard page asked for', async () => {
    loadSession.mockResolvedValue({ isAuthenticated: false, user: null });
    expect(await redirectOf(requireUser(request(BILLING)))).toBe(`/login?next=${encodeURIComponent(BILLING)}`);
    expect(await redirectOf(requireUser(request('/dashboard')))).toBe('/login');
    expect(await redirectOf(requireUser())).toBe('/login');
  });

  it('sends a user who has not finished onboarding there, keeping the page asked for (a plan chosen on the pricing page)', async () => {
    loadSession.mockResolvedValue(signedIn(false));
    expect(await redirectOf(requireOnboardedUser(request(BILLING)))).toBe(`/onboarding?next=${encodeURIComponent(BILLING)}`);
  });

  it('sends to a bare /onboarding for the overview, a query a sign-in would not honour, or no request', async () => {
    loadSession.mockResolvedValue(signedIn(false));
    expect(await redirectOf(requireOnboardedUser(request('/dashboard')))).toBe('/onboarding');
    expect(await redirectOf(requireOnboardedUser(request('/dashboard/billing?plan=pro,enterprise')))).toBe('/onboarding');
    expect(await redirectOf(requireOnboardedUser())).toBe('/onboarding');
  });

  it('lets an onboarded user through', async () => {
    loadSession.mockResolvedValue(signedIn(true));
    expect(await requireOnboardedUser(request(BILLING))).toMatchObject({ id: 'u1' });
  });
});
