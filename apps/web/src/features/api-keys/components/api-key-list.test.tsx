import { DEMO_ACCOUNT_REFUSALS } from '@conductor/shared/constants/demo-account';
import type { ApiKeyView } from '@conductor/shared/schemas/api-keys';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiKeyList } from './api-key-list';

const { rename, revoke } = vi.hoisted(() => ({ rename: vi.fn(), revoke: vi.fn() }));
vi.mock('../api/api-keys', () => ({
  useRenameApiKey: () => ({ mutateAsync: rename, isPending: false }),
  useRevokeApiKey: () => ({ mutateAsync: revoke, isPending: false }),
}));
vi.mock('~/lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const key = (id: string, name: string, extra: Partial<ApiKeyView> = {}): ApiKeyView => ({
  id,
  name,
  environment: 'test',
  masked: 'cc_test_sk_abcde...wxyz',
  permissions: ['api'],
  status: 'active',
  createdAt: '2026-11-01T10:00:00.000Z',
  lastUsedAt: null,
  expiresAt: null,
  revokedAt: null,
  ...extra,
});

describe('API key list', () => {
  beforeEach(() => {
    rename.mockReset().mockResolvedValue({});
    revoke.mockReset().mockResolvedValue({});
  });

  it("marks the demo account's sample keys and offers no edit or revoke for them, saying why", () => {
    render(
      <ApiKeyList
        keys={[key('key_sample', 'Staging', { lockedReason: DEMO_ACCOUNT_REFUSALS.sampleKey }), key('key_own', 'My test key')]}
      />,
    );
    const [sample, own] = screen.getAllByTestId('api-key-row');
    expect(within(sample!).getByText('sample')).toBeInTheDocument();
    for (const name of ['Edit Staging', 'Revoke Staging']) {
      const button = within(sample!).getByRole('button', { name });
      expect(button).toBeDisabled();
      expect(button).toHaveAccessibleDescription(DEMO_ACCOUNT_REFUSALS.sampleKey);
    }
    expect(within(own!).queryByText('sample')).toBeNull();
    expect(within(own!).getByRole('button', { name: 'Edit My test key' })).toBeEnabled();
    expect(within(own!).getByRole('button', { name: 'Revoke My test key' })).toBeEnabled();
  });

  it('shows the whole masked key (never cut) and the whole name on hover', () => {
    const long = 'A rather long key name for the production backend';
    render(<ApiKeyList keys={[key('key_long', long)]} />);
    const row = screen.getByTestId('api-key-row');
    const masked = within(row).getByText('cc_test_sk_abcde...wxyz');
    expect(masked.className).not.toMatch(/\btruncate\b|text-ellipsis/);
    expect(within(row).getByText(long)).toHaveAttribute('title', long);
    // From `md` (768 px) the old fixed grid left the key ~82 px; the table layout now follows the list's own width.
    expect(row.className).not.toMatch(/(^|\s)md:grid-cols/);
  });

  it("copies the key's id, and says so (the masked key would be useless in a config)", async () => {
    const events = userEvent.setup();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<ApiKeyList keys={[key('key_abc123', 'Backend')]} />);
    await events.click(screen.getByRole('button', { name: 'Copy key ID of Backend' }));
    expect(writeText).toHaveBeenCalledWith('key_abc123');
    expect(screen.queryByRole('button', { name: /masked/i })).toBeNull();
  });

  it('hands focus back to the Edit button when the rename dialog closes', async () => {
    const events = userEvent.setup();
    render(<ApiKeyList keys={[key('key_a', 'Alpha'), key('key_b', 'Beta')]} />);
    await events.click(screen.getByRole('button', { name: 'Edit Beta' }));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    await events.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('button', { name: 'Edit Beta' })).toHaveFocus();

    await events.click(screen.getByRole('button', { name: 'Edit Beta' }));
    await events.clear(screen.getByLabelText('Key name'));
    await events.type(screen.getByLabelText('Key name'), 'Gamma');
    await events.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(rename).toHaveBeenCalledWith({ id: 'key_b', name: 'Gamma' });
    expect(screen.getByRole('button', { name: 'Edit Beta' })).toHaveFocus();
  });

  it('hands focus back to the Revoke button on cancel, and to the row after a revoke', async () => {
    const events = userEvent.setup();
    const { rerender } = render(<ApiKeyList keys={[key('key_a', 'Alpha'), key('key_b', 'Beta')]} />);
    await events.click(screen.getByRole('button', { name: 'Revoke Beta' }));
    await events.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByRole('button', { name: 'Revoke Beta' })).toHaveFocus();

    await events.click(screen.getByRole('button', { name: 'Revoke Beta' }));
    revoke.mockImplementation(async () => {
      // The list refreshes before the dialog closes: the row's Revoke button is now disabled.
      rerender(<ApiKeyList keys={[key('key_a', 'Alpha'), key('key_b', 'Beta', { status: 'revoked' })]} />);
      return {};
    });
    await events.click(screen.getByRole('button', { name: 'Revoke key' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(screen.getByRole('button', { name: 'Revoke Beta' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Edit Beta' })).toHaveFocus();
  });
});
