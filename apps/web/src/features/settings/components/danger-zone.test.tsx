import { DELETE_CONFIRMATION_WORD } from '@conductor/shared/schemas/settings';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { DangerZone } from './danger-zone';

vi.mock('../api/settings', () => ({ useDeleteAccount: () => ({ mutateAsync: vi.fn(), isPending: false }) }));
vi.mock('~/lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

describe('delete account dialog', () => {
  it('opens empty again after Cancel, as after Escape: the typed word and the password are not kept', async () => {
    const events = userEvent.setup();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <DangerZone user={{ hasPassword: true, isDemo: false, oidcProvider: null }} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const open = () => events.click(screen.getByRole('button', { name: 'Delete Account' }));
    for (const close of [() => events.click(screen.getByRole('button', { name: 'Cancel' })), () => events.keyboard('{Escape}')]) {
      await open();
      const dialog = screen.getByRole('alertdialog');
      await events.type(screen.getByLabelText(/Type DELETE/), DELETE_CONFIRMATION_WORD);
      await events.type(screen.getByLabelText('Current password'), 'a password');
      expect(dialog.querySelector('button[type="submit"]')).toBeEnabled();
      await close();
      expect(screen.queryByRole('alertdialog')).toBeNull();
      await open();
      expect(screen.getByLabelText(/Type DELETE/)).toHaveValue('');
      expect(screen.getByLabelText('Current password')).toHaveValue('');
      expect(screen.getByRole('alertdialog').querySelector('button[type="submit"]')).toBeDisabled();
      await events.keyboard('{Escape}');
    }
  });

  it('says what is deleted and what is kept: invoices stay, and usage over the quota is invoiced by e-mail', async () => {
    const events = userEvent.setup();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <DangerZone user={{ hasPassword: false, isDemo: false, oidcProvider: null }} />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const button = screen.getByRole('button', { name: 'Delete Account' });
    expect(button).toHaveAccessibleDescription(
      'Permanently delete your account, usage history, API keys, provider keys and sessions. Your invoices are kept: we must keep billing records by law.',
    );
    await events.click(button);
    const dialog = screen.getByRole('alertdialog');
    expect(dialog).toHaveAccessibleDescription(
      'This cannot be undone. Your API keys stop working at once, every session is signed out, and your account, usage history and provider keys are deleted. Your invoices are kept for our records, as the law requires. Usage over your plan’s quota this month is invoiced when you delete the account, and that invoice is sent to your e-mail address.',
    );
    expect(dialog).not.toHaveTextContent(/your data is deleted/i);
  });
});
