import { AUTH_COPY } from '@conductor/shared/schemas/auth-copy';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveSsoAttempt, saveSsoReturnTo } from '../lib/sso-storage';
import { OidcCallback } from './oidc-callback';

const { completeSso } = vi.hoisted(() => ({ completeSso: vi.fn() }));
vi.mock('../api/sso', () => ({ completeSso }));
vi.mock('~/lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

function renderCallback() {
  render(
    <MemoryRouter initialEntries={['/auth/callback']}>
      <Routes>
        <Route path="/auth/callback" element={<OidcCallback />} />
        <Route path="/dashboard/settings" element={<p>Settings page</p>} />
        <Route path="/register" element={<p>Register page</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('the single sign-on callback', () => {
  afterEach(() => {
    window.sessionStorage.clear();
    window.history.replaceState(null, '', '/');
  });

  it('after a refused sign-in-again, offers the way back to Settings (still signed in as before)', async () => {
    saveSsoAttempt({ provider: 'demo', issuer: 'http://127.0.0.1/oidc', state: 'the-state', codeVerifier: 'v'.repeat(43), nonce: 'n' });
    saveSsoReturnTo('/dashboard/settings#profile');
    window.history.replaceState(null, '', '/auth/callback?code=abc&state=the-state');
    completeSso.mockRejectedValueOnce(new Error(AUTH_COPY.ssoReauthOtherAccount));
    renderCallback();
    expect(await screen.findByRole('alert')).toHaveTextContent(AUTH_COPY.ssoReauthOtherAccount);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Back to Settings' }));
    expect(await screen.findByText('Settings page')).toBeInTheDocument();
    expect(window.sessionStorage.getItem('oidc_return_to')).toBeNull();
  });

  it('offers only Try Again after an ordinary failed sign-in', async () => {
    saveSsoAttempt({ provider: 'demo', issuer: 'http://127.0.0.1/oidc', state: 'the-state', codeVerifier: 'v'.repeat(43), nonce: 'n' });
    window.history.replaceState(null, '', '/auth/callback?code=abc&state=the-state');
    completeSso.mockRejectedValueOnce(new Error('The code expired.'));
    renderCallback();
    expect(await screen.findByRole('alert')).toHaveTextContent('The code expired.');
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Back to Settings' })).toBeNull();
  });
});
