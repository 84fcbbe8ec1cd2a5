import type { PublicUser } from '@conductor/shared';
import { REAUTHENTICATION_REQUIRED, SIGN_IN_AGAIN_TO_CHANGE_EMAIL, SIGN_IN_AGAIN_TO_DELETE } from '@conductor/shared/schemas/settings';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '~/lib/api-client';
import { DangerZone } from './danger-zone';
import { ProfileForm } from './profile-form';

const { mutateAsync, initiateSso, providers, fetchPublicQuery } = vi.hoisted(() => ({
  mutateAsync: vi.fn(),
  initiateSso: vi.fn(),
  fetchPublicQuery: vi.fn(),
  providers: {
    failed: false,
    value: [
      { id: 'demo', name: 'Demo OIDC', issuer: 'http://127.0.0.1/oidc', configured: true, note: null },
      { id: 'github', name: 'GitHub', issuer: 'https://github.com', configured: false, note: null },
    ],
  },
}));
vi.mock('../api/settings', () => ({
  useUpdateProfile: () => ({ mutateAsync, isPending: false }),
  useDeleteAccount: () => ({ mutateAsync, isPending: false }),
}));
vi.mock('~/features/auth/lib/initiate-sso', () => ({ initiateSso }));
vi.mock('~/lib/public-query', () => ({
  fetchPublicQuery,
  usePublicQuery: () =>
    providers.failed
      ? { data: undefined, error: new Error('offline'), isPending: true, isError: true }
      : { data: { providers: providers.value }, error: null, isPending: false, isError: false },
}));
vi.mock('~/lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const ssoUser = (oidcProvider: string | null) =>
  ({
    id: 'u1',
    name: 'Sam Sso',
    email: 'sam@example.com',
    authMethod: 'oidc',
    oidcProvider,
    hasPassword: false,
    isDemo: false,
    plan: 'free',
    apiKeys: [],
  }) as unknown as PublicUser;

const renderWith = (node: React.ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>{node}</MemoryRouter>
    </QueryClientProvider>,
  );

describe('signing in again to confirm (single sign-on accounts)', () => {
  beforeEach(() => {
    mutateAsync.mockReset();
    initiateSso.mockReset().mockResolvedValue(undefined);
    fetchPublicQuery.mockReset().mockResolvedValue(undefined);
    providers.failed = false;
  });

  it('the profile shows the refusal on the e-mail field and signs in again with the account’s provider, back to Settings', async () => {
    const events = userEvent.setup();
    mutateAsync.mockRejectedValueOnce(
      new ApiError(403, REAUTHENTICATION_REQUIRED, SIGN_IN_AGAIN_TO_CHANGE_EMAIL, { email: SIGN_IN_AGAIN_TO_CHANGE_EMAIL }),
    );
    renderWith(<ProfileForm user={ssoUser('demo')} />);
    expect(screen.queryByRole('button', { name: /Sign in again/ })).toBeNull();
    await events.clear(screen.getByLabelText('Email'));
    await events.type(screen.getByLabelText('Email'), 'moved@example.com');
    await events.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(SIGN_IN_AGAIN_TO_CHANGE_EMAIL);
    await events.click(screen.getByRole('button', { name: 'Sign in again with Demo OIDC' }));
    expect(initiateSso).toHaveBeenCalledWith(expect.objectContaining({ id: 'demo' }), {
      returnTo: '/dashboard/settings#profile',
      reauthenticate: true,
    });
  });

  it('offers a password (a reset link) when the account’s provider is not configured here, never signing out', async () => {
    const events = userEvent.setup();
    mutateAsync.mockRejectedValueOnce(new ApiError(403, REAUTHENTICATION_REQUIRED, SIGN_IN_AGAIN_TO_DELETE));
    renderWith(<DangerZone user={ssoUser('github')} />);
    await events.click(screen.getByRole('button', { name: 'Delete Account' }));
    await events.type(screen.getByLabelText(/Type DELETE to confirm/), 'DELETE');
    await events.click(screen.getByRole('button', { name: 'Delete account' }));
    expect(await screen.findByTestId('delete-sign-in-again')).toHaveTextContent(SIGN_IN_AGAIN_TO_DELETE);
    expect(screen.getByTestId('sign-in-again-manual')).toHaveTextContent('GitHub sign-in is not available on this server');
    expect(screen.getByRole('link', { name: 'we email you a link' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.queryByRole('button', { name: /Sign in again/ })).toBeNull();
  });

  it('says so, with a way to try again, when the sign-in options did not load', async () => {
    const events = userEvent.setup();
    providers.failed = true;
    mutateAsync.mockRejectedValueOnce(new ApiError(403, REAUTHENTICATION_REQUIRED, SIGN_IN_AGAIN_TO_DELETE));
    renderWith(<DangerZone user={ssoUser('demo')} />);
    await events.click(screen.getByRole('button', { name: 'Delete Account' }));
    await events.type(screen.getByLabelText(/Type DELETE to confirm/), 'DELETE');
    await events.click(screen.getByRole('button', { name: 'Delete account' }));
    expect(await screen.findByTestId('sign-in-again-unavailable')).toHaveTextContent('The sign-in options could not be loaded.');
    await events.click(screen.getByRole('button', { name: 'Try again' }));
    expect(fetchPublicQuery).toHaveBeenCalledTimes(1);
  });
});
