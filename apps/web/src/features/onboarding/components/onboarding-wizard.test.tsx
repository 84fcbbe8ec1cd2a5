import type { PublicUser } from '@conductor/shared';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { OnboardingWizard } from './onboarding-wizard';

const navigate = vi.fn();
const saveKeys = vi.fn();
const complete = vi.fn();
let currentUser: PublicUser;

vi.mock('react-router', async (importOriginal) => ({ ...(await importOriginal<object>()), useNavigate: () => navigate }));
vi.mock('~/lib/auth', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  useAuth: () => ({ user: currentUser, isAuthenticated: true, isLoading: false }),
}));
vi.mock('../api/onboarding', () => ({
  useSaveOnboardingKeys: () => ({ mutateAsync: saveKeys, isPending: false }),
  useCompleteOnboarding: () => ({ mutateAsync: complete, isPending: false }),
}));
vi.mock('~/lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const FREE = { id: 'u1', name: 'Ada Lovelace', plan: 'free', apiKeys: [], onboardingCompleted: false } as unknown as PublicUser;
const BYO = {
  ...FREE,
  plan: 'byo-keys',
  apiKeys: [{ provider: 'mistral', masked: 'mistral-...6789', active: true, endpoint: null }],
} as unknown as PublicUser;

const step = () => screen.getByTestId('onboarding-step');
const heading = () => screen.getByRole('heading', { level: 2 });

describe('onboarding wizard', () => {
  beforeEach(() => {
    currentUser = FREE;
    navigate.mockReset();
    complete.mockReset().mockResolvedValue(FREE);
    saveKeys.mockReset().mockImplementation(async () => {
      currentUser = BYO;
      return BYO;
    });
  });

  it('leaves for the dashboard with a replace, so Back does not reopen the finished wizard', async () => {
    const events = userEvent.setup();
    render(<OnboardingWizard />);
    await events.click(screen.getByRole('button', { name: /Hosted Service/ }));
    await events.click(screen.getByRole('button', { name: 'Go to Dashboard' }));
    expect(complete).toHaveBeenCalledWith('hosted');
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/dashboard', { replace: true }));
  });

  it('goes on to the page the visitor signed up for (a plan chosen on the pricing page), and only to a dashboard page', async () => {
    const events = userEvent.setup();
    const billing = '/dashboard/billing?plan=pro&period=yearly';
    for (const { next, destination } of [
      { next: billing, destination: billing },
      { next: 'https://evil.example/dashboard', destination: '/dashboard' },
    ]) {
      navigate.mockReset();
      window.history.replaceState(null, '', `/onboarding?next=${encodeURIComponent(next)}`);
      const { unmount } = render(<OnboardingWizard />);
      await events.click(screen.getByRole('button', { name: /Hosted Service/ }));
      await events.click(screen.getByRole('button', { name: 'Go to Dashboard' }));
      await waitFor(() => expect(navigate).toHaveBeenCalledWith(destination, { replace: true }));
      unmount();
    }
    window.history.replaceState(null, '', '/');
  });

  it('moves focus to the new step’s heading on every step change', async () => {
    const events = userEvent.setup();
    render(<OnboardingWizard />);
    expect(heading()).not.toHaveFocus();
    await events.click(screen.getByRole('button', { name: /Bring Your Own Keys/ }));
    expect(heading()).toHaveTextContent('Add your provider keys');
    expect(heading()).toHaveFocus();
    await events.type(screen.getByLabelText('Mistral API Key'), 'mistral-0123456789');
    await events.click(screen.getByRole('button', { name: 'Save Keys' }));
    await waitFor(() => expect(step()).toHaveTextContent('Step 3 of 3'));
    expect(heading()).toHaveFocus();
    await events.click(screen.getByRole('button', { name: 'Back' }));
    expect(heading()).toHaveTextContent('Choose how Conductor reaches the model providers');
    expect(heading()).toHaveFocus();
  });

  it('choosing Hosted after saving keys says what finishing does, without contradicting itself', async () => {
    const events = userEvent.setup();
    render(<OnboardingWizard />);
    await events.click(screen.getByRole('button', { name: /Bring Your Own Keys/ }));
    await events.type(screen.getByLabelText('Mistral API Key'), 'mistral-0123456789');
    await events.click(screen.getByRole('button', { name: 'Save Keys' }));
    await waitFor(() => expect(step()).toHaveTextContent('Step 3 of 3'));
    await events.click(screen.getByRole('button', { name: 'Back' }));
    await events.click(screen.getByRole('button', { name: /Hosted Service/ }));

    expect(step()).toHaveTextContent('Step 2 of 2');
    const summary = screen.getByText(/Conductor routes your requests with its own provider keys/);
    expect(summary).toHaveTextContent('You are on the Free plan');
    expect(summary).not.toHaveTextContent('Bring Your Own Keys');
    expect(screen.getByText(/removes the provider keys you saved/)).toBeInTheDocument();
    await events.click(screen.getByRole('button', { name: 'Go to Dashboard' }));
    expect(complete).toHaveBeenCalledWith('hosted');
  });

  it('a plain Hosted choice shows the plan as it is, with no note about keys', async () => {
    const events = userEvent.setup();
    render(<OnboardingWizard />);
    await events.click(screen.getByRole('button', { name: /Hosted Service/ }));
    expect(screen.getByText(/Conductor routes your requests/)).toHaveTextContent('You are on the Free plan');
    expect(screen.queryByText(/removes the provider keys/)).toBeNull();
  });
});
