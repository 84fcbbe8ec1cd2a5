import { MESSAGES } from '@conductor/shared';
import { AUTH_COPY } from '@conductor/shared/schemas/auth-copy';
import type { SsoProviderOption } from '@conductor/shared/schemas/sso';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '~/lib/api-client';
import { toast } from '~/lib/toast';
import { startSso } from '../api/sso';
import { initiateSso } from './initiate-sso';

const pkce = vi.hoisted(() => ({ usable: false }));
vi.mock('./pkce', async (importOriginal) => ({ ...(await importOriginal<object>()), canUsePkce: () => pkce.usable }));
vi.mock('../api/sso', () => ({ startSso: vi.fn() }));
vi.mock('~/lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const DEMO: SsoProviderOption = { id: 'demo', name: 'Demo OIDC', issuer: '', configured: true, note: null };

describe('initiateSso without Web Crypto (plain http off localhost)', () => {
  beforeEach(() => {
    pkce.usable = false;
    vi.mocked(toast.error).mockReset();
  });

  it('says single sign-on needs https, and starts nothing', async () => {
    await expect(initiateSso({ id: 'demo', name: 'Demo OIDC', issuer: '', configured: true, note: null })).rejects.toThrow(
      MESSAGES.oidc.startFailureCause,
    );
    expect(toast.error).toHaveBeenCalledWith(MESSAGES.oidc.startFailure, { description: AUTH_COPY.ssoInsecureContext });
    expect(startSso).not.toHaveBeenCalled();
    expect(window.sessionStorage.length).toBe(0);
  });
});

describe('initiateSso when the start call fails', () => {
  beforeEach(() => {
    pkce.usable = true;
    vi.mocked(toast.error).mockReset();
  });

  it('gives the spec’s failure toast and keeps no attempt', async () => {
    vi.mocked(startSso).mockRejectedValueOnce(new ApiError(429, 'rate_limited', 'Too many sign-in attempts.'));
    await expect(initiateSso(DEMO)).rejects.toThrow(MESSAGES.oidc.startFailureCause);
    expect(toast.error).toHaveBeenCalledWith(MESSAGES.oidc.startFailure);
    expect(window.sessionStorage.length).toBe(0);
  });
});
