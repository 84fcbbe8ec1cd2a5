import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { initiateSso } from '../lib/initiate-sso';
import { SsoProviders } from './sso-providers';

const DEMO = { id: 'demo', name: 'Demo OIDC', issuer: 'http://localhost/oidc', configured: true, note: null };
vi.mock('~/lib/public-query', () => ({
  usePublicQuery: () => ({ data: { providers: [DEMO], demoAccount: true }, error: null, isPending: false, isError: false }),
}));
// The browser leaves for the provider: the promise settles without the page ever seeing the result.
vi.mock('../lib/initiate-sso', () => ({ initiateSso: vi.fn(async () => undefined) }));

const pageShow = (persisted: boolean) => {
  const event = new Event('pageshow');
  Object.defineProperty(event, 'persisted', { value: persisted });
  act(() => {
    window.dispatchEvent(event);
  });
};

describe('SSO providers', () => {
  it('clears the pending redirect when Back restores the page from the back/forward cache', async () => {
    const events = userEvent.setup();
    render(<SsoProviders />);
    const button = screen.getByRole('button', { name: 'Continue with Demo OIDC' });
    await events.click(button);
    expect(initiateSso).toHaveBeenCalledWith(DEMO, {});
    expect(button).toBeDisabled();

    pageShow(false);
    expect(button).toBeDisabled();
    pageShow(true);
    expect(button).toBeEnabled();
  });

  it('comes back from the provider to the page the visitor signed up for (a plan chosen on the pricing page)', async () => {
    const events = userEvent.setup();
    const billing = '/dashboard/billing?plan=pro&period=monthly';
    window.history.replaceState(null, '', `/register?next=${encodeURIComponent(billing)}`);
    render(<SsoProviders />);
    await events.click(screen.getByRole('button', { name: 'Continue with Demo OIDC' }));
    expect(initiateSso).toHaveBeenLastCalledWith(DEMO, { returnTo: billing });
    window.history.replaceState(null, '', '/');
  });
});
