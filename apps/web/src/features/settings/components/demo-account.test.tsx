import type { PublicUser } from '@conductor/shared';
import { DEMO_ACCOUNT_REFUSALS } from '@conductor/shared/constants/demo-account';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '~/lib/api-client';
import { DangerZone } from './danger-zone';
import { PasswordForm } from './password-form';
import { ProfileForm } from './profile-form';
import { ProviderKeysPanel } from './provider-keys-panel';
import { RoutingForm } from './routing-form';

const { mutateAsync, mutation } = vi.hoisted(() => {
  const mutateAsync = vi.fn();
  return { mutateAsync, mutation: () => ({ mutateAsync, isPending: false }) };
});
vi.mock('../api/settings', () => ({
  useUpdateProfile: mutation,
  useChangePassword: mutation,
  useSaveProviderKey: mutation,
  useRemoveProviderKey: mutation,
  useDeleteAccount: mutation,
  useSaveRouting: mutation,
  routingQuery: () => ({ queryKey: ['settings', 'routing'], queryFn: async () => ({ policy: null }) }),
}));
vi.mock('~/lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const demo = {
  id: 'demo',
  name: 'Demo User',
  email: 'demo@conductor.dev',
  authMethod: 'email',
  hasPassword: true,
  isDemo: true,
  plan: 'pro',
  apiKeys: [{ provider: 'openai', masked: 'sk-abcde...1234', active: true, endpoint: null }],
} as PublicUser;

function renderWithProviders(node: React.ReactNode) {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter>{node}</MemoryRouter>
    </QueryClientProvider>,
  );
}

/** The shared demo account: what the server refuses is not offered, and the page says why. */
describe('settings on the demo account', () => {
  beforeEach(() => mutateAsync.mockReset().mockResolvedValue(undefined));

  it('keeps the name and e-mail read-only with the reasons, and offers no save', async () => {
    const events = userEvent.setup();
    render(<ProfileForm user={demo} />);
    const name = screen.getByLabelText('Name');
    const email = screen.getByLabelText('Email');
    expect(name).toHaveAttribute('readonly');
    expect(name).toHaveAccessibleDescription(DEMO_ACCOUNT_REFUSALS.name);
    expect(email).toHaveAttribute('readonly');
    expect(email).toHaveAccessibleDescription(DEMO_ACCOUNT_REFUSALS.email);
    await events.type(name, 'x');
    await events.type(email, 'x');
    expect(name).toHaveValue('Demo User');
    expect(email).toHaveValue('demo@conductor.dev');
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();
    expect(mutateAsync).not.toHaveBeenCalled();
  });

  it("shows the server's refusal on the name field when the page did not know (an old snapshot)", async () => {
    const events = userEvent.setup();
    render(<ProfileForm user={{ ...demo, isDemo: false }} />);
    mutateAsync.mockRejectedValueOnce(new ApiError(403, 'forbidden', DEMO_ACCOUNT_REFUSALS.name, { name: DEMO_ACCOUNT_REFUSALS.name }));
    await events.type(screen.getByLabelText('Name'), '!');
    await events.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(DEMO_ACCOUNT_REFUSALS.name);
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows the routing default with the reason, every control disabled', async () => {
    renderWithProviders(<RoutingForm isDemo />);
    expect(await screen.findByTestId('demo-routing')).toHaveTextContent(DEMO_ACCOUNT_REFUSALS.routing);
    expect(screen.getByTestId('routing-current')).toHaveTextContent('No account default');
    for (const radio of screen.getAllByRole('radio')) expect(radio).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Save routing' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Clear default' })).toBeDisabled();
  });

  it('offers no password form, and says why', () => {
    render(<PasswordForm hasPassword isDemo />);
    expect(screen.getByText(DEMO_ACCOUNT_REFUSALS.password)).toBeInTheDocument();
    expect(screen.queryByLabelText('Current password')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Update password' })).toBeNull();
  });

  it('shows the provider keys without Add, Replace or Remove, and says why', () => {
    renderWithProviders(<ProviderKeysPanel user={demo} />);
    expect(screen.getByTestId('demo-provider-keys')).toHaveTextContent(DEMO_ACCOUNT_REFUSALS.providerKeys);
    expect(screen.getByTestId('provider-openai')).toHaveTextContent('sk-abcde...1234');
    for (const name of ['Add', 'Replace', 'Remove']) expect(screen.queryByRole('button', { name })).toBeNull();
  });

  it('disables Delete Account with the reason as its description; Sign Out stays', () => {
    renderWithProviders(<DangerZone user={demo} />);
    const remove = screen.getByRole('button', { name: 'Delete Account' });
    expect(remove).toBeDisabled();
    expect(remove).toHaveAccessibleDescription(DEMO_ACCOUNT_REFUSALS.deleteAccount);
    expect(screen.getByRole('button', { name: 'Sign Out' })).toBeEnabled();
  });
});
