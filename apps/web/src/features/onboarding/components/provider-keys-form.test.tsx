import { MESSAGES } from '@conductor/shared';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '~/lib/api-client';
import { toast } from '~/lib/toast';
import { ProviderKeysForm } from './provider-keys-form';

const mutateAsync = vi.fn();
vi.mock('../api/onboarding', () => ({ useSaveOnboardingKeys: () => ({ mutateAsync, isPending: false }) }));
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
    mutateAsync.mockReset();
    vi.mocked(toast.error).mockReset();
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
});
