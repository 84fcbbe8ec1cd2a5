import type { PublicUser } from '@conductor/shared';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ProviderKeysPanel } from './provider-keys-panel';

const remove = vi.fn();
const saveKey = vi.fn();
vi.mock('../api/settings', () => ({
  useSaveProviderKey: () => ({ mutateAsync: saveKey, isPending: false }),
  useRemoveProviderKey: () => ({ mutateAsync: remove, isPending: false }),
}));
vi.mock('~/lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const user = (plan: PublicUser['plan'], keys: PublicUser['apiKeys']) => ({ id: 'u1', plan, apiKeys: keys }) as PublicUser;
const openAiKey = [{ provider: 'openai' as const, masked: 'sk-abcde...1234', active: true, endpoint: null }];

function renderPanel(account: PublicUser) {
  render(
    <MemoryRouter>
      <ProviderKeysPanel user={account} />
    </MemoryRouter>,
  );
}

describe('provider keys panel', () => {
  beforeEach(() => {
    remove.mockReset().mockResolvedValue({});
    saveKey.mockReset().mockResolvedValue({});
  });

  it('asks before removing a key, says what removal does, and keeps it on Keep key', async () => {
    const events = userEvent.setup();
    renderPanel(user('byo-keys', openAiKey));
    await events.click(screen.getByRole('button', { name: 'Remove' }));
    const confirm = screen.getByRole('group', { name: 'Remove the OpenAI key?' });
    expect(confirm).toHaveTextContent('Requests to OpenAI models fail until you add a key again.');
    await events.click(screen.getByRole('button', { name: 'Keep key' }));
    expect(remove).not.toHaveBeenCalled();
    expect(screen.queryByRole('group', { name: 'Remove the OpenAI key?' })).toBeNull();

    await events.click(screen.getByRole('button', { name: 'Remove' }));
    // While asking, the row offers nothing else (no Replace beside the question).
    expect(screen.queryByRole('button', { name: 'Replace' })).toBeNull();
    await events.click(screen.getByRole('button', { name: 'Remove key' }));
    expect(remove).toHaveBeenCalledWith('openai');
  });

  it('keeps keyboard focus: Add moves it to the key field, Cancel back to Add', async () => {
    const events = userEvent.setup();
    renderPanel(user('free', []));
    const add = screen.getAllByRole('button', { name: 'Add' })[0] as HTMLElement;
    add.focus();
    await events.keyboard('{Enter}');
    expect(screen.getByLabelText('OpenAI API key')).toHaveFocus();
    await events.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getAllByRole('button', { name: 'Add' })[0]).toHaveFocus();
  });

  it('on a hosted plan, says the server’s key takes over', async () => {
    const events = userEvent.setup();
    renderPanel(user('pro', openAiKey));
    await events.click(screen.getByRole('button', { name: 'Remove' }));
    expect(screen.getByRole('group', { name: 'Remove the OpenAI key?' })).toHaveTextContent(
      "Requests to OpenAI models then use Conductor's OpenAI key under your plan's limits, where this server has one.",
    );
  });

  it('tells a bring-your-own-keys account without keys that requests fail, with the way to a hosted plan', () => {
    renderPanel(user('byo-keys', []));
    expect(screen.getByTestId('no-provider-keys')).toHaveTextContent('API requests fail until you add one');
    expect(screen.getByRole('link', { name: 'Choose a plan in Billing' })).toHaveAttribute('href', '/dashboard/billing');
  });

  describe('replacing an Azure key', () => {
    const RESOURCE = 'https://my-resource.openai.azure.com';
    const NEW_KEY = '0123456789abcdef0123456789abcdef';
    const azureKey = (endpoint: string | null) => [{ provider: 'azure' as const, masked: '01234567...cdef', active: true, endpoint }];

    type Events = ReturnType<typeof userEvent.setup>;
    async function replaceAzureKey(endpoint: string | null, editResource?: (events: Events, field: HTMLElement) => Promise<void>) {
      const events = userEvent.setup();
      renderPanel(user('byo-keys', azureKey(endpoint)));
      await events.click(screen.getByRole('button', { name: 'Replace' }));
      const resource = screen.getByLabelText('Azure OpenAI resource URL');
      expect(resource).toHaveValue(endpoint ?? '');
      await editResource?.(events, resource);
      await events.type(screen.getByLabelText('Azure OpenAI API key'), NEW_KEY);
      await events.click(screen.getByRole('button', { name: 'Save' }));
    }

    it('keeps the key’s resource URL: it opens filled in and is sent with the new key', async () => {
      await replaceAzureKey(RESOURCE);
      expect(saveKey).toHaveBeenCalledWith({ provider: 'azure', key: NEW_KEY, endpoint: RESOURCE });
    });

    it('sends the resource URL the user types instead', async () => {
      const other = 'https://other-resource.openai.azure.com';
      await replaceAzureKey(RESOURCE, async (events, field) => {
        await events.clear(field);
        await events.type(field, other);
      });
      expect(saveKey).toHaveBeenCalledWith({ provider: 'azure', key: NEW_KEY, endpoint: other });
    });

    it('a key on the server’s resource stays there', async () => {
      await replaceAzureKey(null);
      expect(saveKey).toHaveBeenCalledWith({ provider: 'azure', key: NEW_KEY });
    });
  });
});
