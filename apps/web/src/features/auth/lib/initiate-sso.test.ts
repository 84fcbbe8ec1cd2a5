import { MESSAGES } from '@conductor/shared';
import { AUTH_COPY } from '@conductor/shared/schemas/auth-copy';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '~/lib/toast';
import { startSso } from '../api/sso';
import { initiateSso } from './initiate-sso';

vi.mock('./pkce', async (importOriginal) => ({ ...(await importOriginal<object>()), canUsePkce: () => false }));
vi.mock('../api/sso', () => ({ startSso: vi.fn() }));
vi.mock('~/lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

describe('initiateSso without Web Crypto (plain http off localhost)', () => {
  it('says single sign-on needs https, and starts nothing', async () => {
    await expect(initiateSso({ id: 'demo', name: 'Demo OIDC', issuer: '', configured: true, note: null })).rejects.toThrow(
      MESSAGES.oidc.startFailureCause,
    );
    expect(toast.error).toHaveBeenCalledWith(MESSAGES.oidc.startFailure, { description: AUTH_COPY.ssoInsecureContext });
    expect(startSso).not.toHaveBeenCalled();
    expect(window.sessionStorage.length).toBe(0);
  });
});
