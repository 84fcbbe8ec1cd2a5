import { MESSAGES } from '@conductor/shared';
import { AZURE_ENDPOINT_NEEDS_KEY, AZURE_ENDPOINT_REFUSED, KEY_CHARACTERS } from '@conductor/shared/schemas/onboarding';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '~/lib/api-client';
import { toast } from '~/lib/toast';
import { ProviderKeysForm } from './provider-keys-form';

const mutateAsync = vi.fn();
let isPending = false;
vi.mock('../api/onboarding', () => ({ useSaveOnboardingKeys: () => ({ mutateAsync, isPending }) }));
vi.mock('~/lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const CLOSED = 'Onboarding is finished: manage your provider keys in Settings → Provider keys, and your plan in Billing.';

async function saveMistralKey() {
  const events = userEvent.setup();
  const onSaved = vi.fn();
  render(<ProviderKeysForm onSaved={onSaved} onBack={vi.fn()} />);
  await events.type(screen.getByLabelText('Mistral API Key'), 'mistral-0123456789');
  await events.click(screen.getByRole('button', { name: 'Save Keys' }));
  await waitFor(() => expect(mutateAsync).toHaveBeenCalledWith({ mistral: 'mistral-0123456789' }));
  return onSaved;
}

describe('provider keys form', () => {
  beforeEach(() => {
    isPending = false;
    mutateAsync.mockReset();
    vi.mocked(toast.error).mockReset();
  });

  const AZURE_KEY = '0123456789abcdef0123';
  const URL_LABEL = 'Azure resource URL';

  it('sends the Azure key with its resource URL, trimmed', async () => {
    mutateAsync.mockResolvedValue({});
    const events = userEvent.setup();
    const onSaved = vi.fn();
    render(<ProviderKeysForm onSaved={onSaved} onBack={vi.fn()} />);
    const url = screen.getByLabelText(URL_LABEL);
    expect(url).toHaveAttribute('placeholder', 'https://your-resource.openai.azure.com');
    expect(url).toHaveAccessibleDescription(/Where your Azure key is sent/);
    await events.type(screen.getByLabelText('Azure OpenAI API Key'), AZURE_KEY);
    await events.type(url, ' https://my-resource.openai.azure.com ');
    await events.click(screen.getByRole('button', { name: 'Save Keys' }));
    await waitFor(() =>
      expect(mutateAsync).toHaveBeenCalledWith({ azure: AZURE_KEY, azureEndpoint: 'https://my-resource.openai.azure.com' }),
    );
    expect(onSaved).toHaveBeenCalled();
  });

  it('names what is wrong with a key: the spec’s message when too short, "without spaces" for a space', async () => {
    const events = userEvent.setup();
    render(<ProviderKeysForm onSaved={vi.fn()} onBack={vi.fn()} />);
    const azure = screen.getByLabelText('Azure OpenAI API Key');
    await events.type(azure, 'short');
    await events.click(screen.getByRole('button', { name: 'Save Keys' }));
    await waitFor(() => expect(azure).toHaveAccessibleDescription(MESSAGES.providerKeys.azure));
    await events.clear(azure);
    await events.type(azure, '0123456789 abcdef0123456789');
    await events.click(screen.getByRole('button', { name: 'Save Keys' }));
    await waitFor(() => expect(azure).toHaveAccessibleDescription(KEY_CHARACTERS));
    expect(mutateAsync).not.toHaveBeenCalled();
  });

  it('refuses a resource URL without the Azure key, or not shaped like one, on the field', async () => {
    const events = userEvent.setup();
    render(<ProviderKeysForm onSaved={vi.fn()} onBack={vi.fn()} />);
    const url = screen.getByLabelText(URL_LABEL);
    await events.type(screen.getByLabelText('Mistral API Key'), 'mistral-0123456789');
    await events.type(url, 'https://my-resource.openai.azure.com');
    await events.click(screen.getByRole('button', { name: 'Save Keys' }));
    await waitFor(() => expect(url).toHaveAccessibleDescription(AZURE_ENDPOINT_NEEDS_KEY));
    expect(url).toHaveAttribute('aria-invalid', 'true');

    await events.type(screen.getByLabelText('Azure OpenAI API Key'), AZURE_KEY);
    await events.clear(url);
    await events.type(url, 'my-resource');
    await events.click(screen.getByRole('button', { name: 'Save Keys' }));
    await waitFor(() => expect(url).toHaveAccessibleDescription('Enter the resource URL, like https://your-resource.openai.azure.com'));
    expect(mutateAsync).not.toHaveBeenCalled();
  });

  it('shows the server’s refusal of the resource URL on the field, not as a toast', async () => {
    mutateAsync.mockRejectedValue(
      new ApiError(400, 'validation_failed', AZURE_ENDPOINT_REFUSED, { azureEndpoint: AZURE_ENDPOINT_REFUSED }),
    );
    const events = userEvent.setup();
    const onSaved = vi.fn();
    render(<ProviderKeysForm onSaved={onSaved} onBack={vi.fn()} />);
    const url = screen.getByLabelText(URL_LABEL);
    await events.type(screen.getByLabelText('Azure OpenAI API Key'), AZURE_KEY);
    await events.type(url, 'https://evil.example.com');
    await events.click(screen.getByRole('button', { name: 'Save Keys' }));
    await waitFor(() => expect(url).toHaveAccessibleDescription(AZURE_ENDPOINT_REFUSED));
    expect(url).toHaveAttribute('aria-invalid', 'true');
    expect(url).toHaveFocus();
    expect(toast.error).not.toHaveBeenCalled();
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('shows the server’s reason when keys cannot be saved here (409)', async () => {
    mutateAsync.mockRejectedValue(new ApiError(409, 'conflict', CLOSED));
    const onSaved = await saveMistralKey();
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(CLOSED));
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('keeps the spec’s failure message for other failures', async () => {
    mutateAsync.mockRejectedValue(new ApiError(0, 'network', 'Failed to fetch'));
    await saveMistralKey();
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(MESSAGES.onboarding.keysFailed));
  });

  it('adds no toast when the session ended (the client signed out with its own), and keeps the spec’s after a server error', async () => {
    mutateAsync.mockRejectedValue(new ApiError(401, 'session_expired', 'Session expired. Please login again.', undefined, true));
    const onSaved = await saveMistralKey();
    await waitFor(() => expect(mutateAsync).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(toast.error).not.toHaveBeenCalled();
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('a server error the client announced still gets the spec’s failure toast', async () => {
    mutateAsync.mockRejectedValue(new ApiError(503, 'unavailable', 'Server error. Please try again later.', undefined, true));
    await saveMistralKey();
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(MESSAGES.onboarding.keysFailed));
  });

  it('offers no Back while a save is in flight, so the wizard cannot be left half-way', () => {
    isPending = true;
    render(<ProviderKeysForm onSaved={vi.fn()} onBack={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Back' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Saving...' })).toBeDisabled();
  });

  it('starts from the values it is given and reports every change (the wizard keeps them across Back)', async () => {
    const events = userEvent.setup();
    const onValuesChange = vi.fn();
    const values = {
      openai: '',
      anthropic: '',
      google: '',
      azure: AZURE_KEY,
      mistral: '',
      cohere: '',
      azureEndpoint: 'https://r.openai.azure.com',
    };
    render(<ProviderKeysForm defaultValues={values} onValuesChange={onValuesChange} onSaved={vi.fn()} onBack={vi.fn()} />);
    expect(screen.getByLabelText('Azure OpenAI API Key')).toHaveValue(AZURE_KEY);
    expect(screen.getByLabelText(URL_LABEL)).toHaveValue('https://r.openai.azure.com');
    await events.type(screen.getByLabelText('Cohere API Key'), 'cohere-0123456789');
    expect(onValuesChange).toHaveBeenLastCalledWith({ ...values, cohere: 'cohere-0123456789' });
  });
});
