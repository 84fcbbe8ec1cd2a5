import { DEMO_ACCOUNT_REFUSALS } from '@conductor/shared/constants/demo-account';
import type { ApiKeyView } from '@conductor/shared/schemas/api-keys';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ApiKeyList } from './api-key-list';

vi.mock('../api/api-keys', () => ({
  useRenameApiKey: () => ({ mutateAsync: vi.fn(), isPending: false }),
  useRevokeApiKey: () => ({ mutateAsync: vi.fn(), isPending: false }),
}));
vi.mock('~/lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

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
});
