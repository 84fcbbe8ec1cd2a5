import { AUTH_COPY } from '@conductor/shared/schemas/auth-copy';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveSsoAttempt, saveSsoReturnTo } from '../lib/sso-storage';
import { OidcCallback } from './oidc-callback';

const { completeSso } = vi.hoisted(() => ({ completeSso: vi.fn() }));
vi.mock('../api/sso', () => ({ completeSso }));
vi.mock('~/lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

function RegisterPage() {
  return <p>Register page {useLocation().search}</p>;
}
function Onboarding() {
  return <p>Onboarding {useLocation().search}</p>;
}

function renderCallback() {
  render(
    <MemoryRouter initialEntries={['/auth/callback']}>
      <Routes>
        <Route path="/auth/callback" element={<OidcCallback />} />
        <Route path="/dashboard/settings" element={<p>Settings page</p>} />
        <Route path="/register" element={<RegisterPage />} />
        <Route path="/onboarding" element={<Onboarding />} />
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

  const billing = '/dashboard/billing?plan=pro&period=yearly';
  const withBilling = `?next=${encodeURIComponent(billing)}`;

  it('sends a new account on to onboarding, then to the plan chosen on the pricing page', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    saveSsoAttempt({ provider: 'demo', issuer: 'http://127.0.0.1/oidc', state: 'the-state', codeVerifier: 'v'.repeat(43), nonce: 'n' });
    saveSsoReturnTo(billing);
    window.history.replaceState(null, '', '/auth/callback?code=abc&state=the-state');
    completeSso.mockResolvedValueOnce({ user: { id: 'u1', onboardingCompleted: false }, isNewUser: true });
    renderCallback();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await screen.findByText(`Onboarding ${withBilling}`)).toBeInTheDocument();
    vi.useRealTimers();
  });

  it('keeps the chosen plan when a failed sign-up is tried again, without offering Settings', async () => {
    saveSsoAttempt({ provider: 'demo', issuer: 'http://127.0.0.1/oidc', state: 'the-state', codeVerifier: 'v'.repeat(43), nonce: 'n' });
    saveSsoReturnTo(billing);
    window.history.replaceState(null, '', '/auth/callback?code=abc&state=the-state');
    completeSso.mockRejectedValueOnce(new Error('The code expired.'));
    renderCallback();
    expect(await screen.findByRole('alert')).toHaveTextContent('The code expired.');
    expect(screen.queryByRole('button', { name: 'Back to Settings' })).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText(`Register page ${withBilling}`)).toBeInTheDocument();
  });
});
