import type { PublicUser } from '@conductor/shared';
import { act, render, screen, waitFor } from '@testing-library/react';
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

  it('keeps the keys typed in step 2 across Back (repro: type a key, Back, Bring Your Own Keys again)', async () => {
    const events = userEvent.setup();
    render(<OnboardingWizard />);
    await events.click(screen.getByRole('button', { name: /Bring Your Own Keys/ }));
    await events.type(screen.getByLabelText('Mistral API Key'), 'mistral-0123456789');
    await events.type(screen.getByLabelText('Azure resource URL'), 'https://my-resource.openai.azure.com');
    await events.click(screen.getByRole('button', { name: 'Back' }));
    await events.click(screen.getByRole('button', { name: /Bring Your Own Keys/ }));
    expect(screen.getByLabelText('Mistral API Key')).toHaveValue('mistral-0123456789');
    expect(screen.getByLabelText('Azure resource URL')).toHaveValue('https://my-resource.openai.azure.com');
    expect(screen.queryByRole('list', { name: 'Saved provider keys' })).toBeNull();
  });

  describe('back in step 2 with keys saved', () => {
    const OPENAI = 'sk-proj0123456789abcdefABCDEF';
    const WITH_OPENAI = {
      ...FREE,
      plan: 'byo-keys',
      apiKeys: [{ provider: 'openai', masked: 'sk-proj0...CDEF', active: true, endpoint: null }],
    } as unknown as PublicUser;

    async function saveThenBack() {
      saveKeys.mockImplementation(async () => {
        currentUser = WITH_OPENAI;
        return WITH_OPENAI;
      });
      const events = userEvent.setup();
      const { rerender } = render(<OnboardingWizard />);
      await events.click(screen.getByRole('button', { name: /Bring Your Own Keys/ }));
      await events.type(screen.getByLabelText('OpenAI API Key'), OPENAI);
      await events.click(screen.getByRole('button', { name: 'Save Keys' }));
      await waitFor(() => expect(step()).toHaveTextContent('Step 3 of 3'));
      rerender(<OnboardingWizard />); // the auth store's update
      await events.click(screen.getByRole('button', { name: 'Back' }));
      await events.click(screen.getByRole('button', { name: /Bring Your Own Keys/ }));
      return events;
    }

    it('shows the saved keys masked, says saving replaces them, and keeps what was typed', async () => {
      await saveThenBack();
      expect(step()).toHaveTextContent('Step 2 of 3');
      expect(screen.getByRole('list', { name: 'Saved provider keys' })).toHaveTextContent('sk-proj0...CDEF');
      expect(screen.getByText(/replaces these keys/)).toBeInTheDocument();
      expect(screen.getByLabelText('OpenAI API Key')).toHaveValue(OPENAI);
    });

    it('adding a key then saving sends the earlier key too, so it is not lost', async () => {
      const events = await saveThenBack();
      await events.type(screen.getByLabelText('Mistral API Key'), 'mistral-0123456789');
      await events.click(screen.getByRole('button', { name: 'Save Keys' }));
      await waitFor(() => expect(saveKeys).toHaveBeenLastCalledWith({ openai: OPENAI, mistral: 'mistral-0123456789' }));
    });

    it('Continue with saved keys goes on to the summary without saving again', async () => {
      const events = await saveThenBack();
      await events.click(screen.getByRole('button', { name: 'Continue with saved keys' }));
      expect(step()).toHaveTextContent('Step 3 of 3');
      expect(heading()).toHaveTextContent('Your keys are configured');
      expect(saveKeys).toHaveBeenCalledTimes(1);
    });
  });

  it('a save that ends after the user left step 2 does not move the wizard on (no "Step 3 of 2")', async () => {
    let finishSave: (user: PublicUser) => void = () => {};
    saveKeys.mockImplementation(
      () =>
        new Promise<PublicUser>((resolve) => {
          finishSave = (user) => {
            currentUser = user;
            resolve(user);
          };
        }),
    );
    const events = userEvent.setup();
    render(<OnboardingWizard />);
    await events.click(screen.getByRole('button', { name: /Bring Your Own Keys/ }));
    await events.type(screen.getByLabelText('Mistral API Key'), 'mistral-0123456789');
    await events.click(screen.getByRole('button', { name: 'Save Keys' }));
    await waitFor(() => expect(saveKeys).toHaveBeenCalled());
    // The mocked mutation never reports pending, so Back stays enabled: the wizard itself must hold.
    await events.click(screen.getByRole('button', { name: 'Back' }));
    await events.click(screen.getByRole('button', { name: /Hosted Service/ }));
    await act(async () => finishSave(BYO));
    expect(step()).toHaveTextContent('Step 2 of 2');
    expect(heading()).toHaveTextContent('You are all set');
  });
});
