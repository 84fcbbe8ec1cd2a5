import { DEMO_ACCOUNT_REFUSALS } from '@conductor/shared/constants/demo-account';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CreateKeyDialog } from './create-key-dialog';

const mutateAsync = vi.fn();
vi.mock('../api/api-keys', () => ({ useCreateApiKey: () => ({ mutateAsync, isPending: false, reset: vi.fn() }) }));
vi.mock('~/lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));
const auth = vi.hoisted(() => ({ isDemo: false }));
vi.mock('~/lib/auth', () => ({ useAuth: () => ({ user: { isDemo: auth.isDemo } }) }));

const testKey = `cc_test_sk_${'a'.repeat(43)}`;

describe('create key dialog', () => {
  beforeEach(() => {
    mutateAsync.mockReset().mockResolvedValue({ key: testKey, apiKey: { name: 'Try it' } });
  });

  it('offers live keys by default on an ordinary account', async () => {
    auth.isDemo = false;
    const events = userEvent.setup();
    render(<CreateKeyDialog />);
    await events.click(screen.getByRole('button', { name: 'Create API Key' }));
    expect(screen.getByLabelText(/^Live/)).toBeChecked();
    expect(screen.getByLabelText(/^Live/)).toBeEnabled();
    expect(screen.queryByText(DEMO_ACCOUNT_REFUSALS.liveApiKey)).toBeNull();
  });

  it('on the demo account, creates test keys only and says why live is off', async () => {
    auth.isDemo = true;
    const events = userEvent.setup();
    render(<CreateKeyDialog />);
    await events.click(screen.getByRole('button', { name: 'Create API Key' }));
    const live = screen.getByLabelText(/^Live/);
    expect(live).toBeDisabled();
    expect(live).toHaveAccessibleDescription(DEMO_ACCOUNT_REFUSALS.liveApiKey);
    expect(screen.getByLabelText(/^Test/)).toBeChecked();

    await events.type(screen.getByLabelText('Key name'), 'Try it');
    await events.click(screen.getByRole('button', { name: 'Create key' }));
    expect(mutateAsync).toHaveBeenCalledWith(expect.objectContaining({ name: 'Try it', environment: 'test' }));
    expect(await screen.findByText(testKey)).toBeInTheDocument();
  });
});
