import { DEMO_ACCOUNT_REFUSALS } from '@conductor/shared/constants/demo-account';
import { API_KEY_PERMISSION_MESSAGES } from '@conductor/shared/schemas/api-keys';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactNode, useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CreateKeyDialog } from './create-key-dialog';

const { mutateAsync, toast } = vi.hoisted(() => ({ mutateAsync: vi.fn(), toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));
// A real mutation around the mocked request, so `isPending` is what the dialog sees in the app.
vi.mock('../api/api-keys', async () => {
  const { useMutation } = await import('@tanstack/react-query');
  return { useCreateApiKey: () => useMutation({ mutationFn: (input: unknown) => mutateAsync(input) }) };
});
vi.mock('~/lib/toast', () => ({ toast }));
const auth = vi.hoisted(() => ({ isDemo: false }));
vi.mock('~/lib/auth', () => ({ useAuth: () => ({ user: { isDemo: auth.isDemo } }) }));

const testKey = `cc_test_sk_${'a'.repeat(43)}`;

function withClient(children: ReactNode) {
  return <QueryClientProvider client={new QueryClient()}>{children}</QueryClientProvider>;
}

/** A mouse press on the overlay, outside the dialog. */
function pressOutside() {
  fireEvent.pointerDown(document.body, { button: 0, pointerType: 'mouse' });
  fireEvent.pointerUp(document.body, { button: 0, pointerType: 'mouse' });
  fireEvent.click(document.body);
}
/** Lets a dismissal, if any, finish before looking. */
const settle = () => act(() => new Promise((done) => setTimeout(done, 50)));

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

async function fillAndSubmit(events: ReturnType<typeof userEvent.setup>, name = 'Try it') {
  await events.type(screen.getByLabelText('Key name'), name);
  await events.click(screen.getByRole('button', { name: 'Create key' }));
}

/** A page that holds the dialog's open state, as the keys page does, and can close it from outside. */
const page: { setOpen: (open: boolean) => void } = { setOpen: () => undefined };
function Page() {
  const [open, setOpen] = useState(false);
  page.setOpen = setOpen;
  return <CreateKeyDialog open={open} onOpenChange={setOpen} />;
}

describe('create key dialog', () => {
  beforeEach(() => {
    auth.isDemo = false;
    mutateAsync.mockReset().mockResolvedValue({ key: testKey, apiKey: { name: 'Try it' } });
    for (const fn of Object.values(toast)) fn.mockReset();
  });

  it('offers live keys by default on an ordinary account', async () => {
    const events = userEvent.setup();
    render(withClient(<CreateKeyDialog />));
    await events.click(screen.getByRole('button', { name: 'Create API Key' }));
    expect(screen.getByLabelText(/^Live/)).toBeChecked();
    expect(screen.getByLabelText(/^Live/)).toBeEnabled();
    expect(screen.queryByText(DEMO_ACCOUNT_REFUSALS.liveApiKey)).toBeNull();
  });

  it('on the demo account, creates test keys only and says why live is off', async () => {
    auth.isDemo = true;
    const events = userEvent.setup();
    render(withClient(<CreateKeyDialog />));
    await events.click(screen.getByRole('button', { name: 'Create API Key' }));
    const live = screen.getByLabelText(/^Live/);
    expect(live).toBeDisabled();
    expect(live).toHaveAccessibleDescription(DEMO_ACCOUNT_REFUSALS.liveApiKey);
    expect(screen.getByLabelText(/^Test/)).toBeChecked();

    await fillAndSubmit(events);
    expect(mutateAsync).toHaveBeenCalledWith(expect.objectContaining({ name: 'Try it', environment: 'test' }));
    expect(await screen.findByText(testKey)).toBeInTheDocument();
  });

  it('cannot be dismissed while the key is being created, and then shows the key', async () => {
    const pending = deferred<unknown>();
    mutateAsync.mockReturnValue(pending.promise);
    const events = userEvent.setup();
    render(withClient(<CreateKeyDialog />));
    await events.click(screen.getByRole('button', { name: 'Create API Key' }));
    await fillAndSubmit(events);
    expect(screen.getByRole('button', { name: 'Creating...' })).toBeDisabled();

    expect(screen.getByRole('button', { name: 'Cancel' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Close' })).toBeDisabled();
    await events.keyboard('{Escape}');
    pressOutside();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await settle();
    expect(screen.getByRole('dialog')).toBeInTheDocument();

    pending.resolve({ key: testKey, apiKey: { name: 'Try it' } });
    expect(await screen.findByTestId('new-api-key')).toHaveTextContent(testKey);
    expect(toast.success).toHaveBeenCalledWith('API key "Try it" created');
  });

  it('never shows a late result in a later opening', async () => {
    const pending = deferred<unknown>();
    mutateAsync.mockReturnValue(pending.promise);
    // The page closes it from outside (as the keys page can), while the request is on its way.
    const events = userEvent.setup();
    render(withClient(<Page />));
    await events.click(screen.getByRole('button', { name: 'Create API Key' }));
    await fillAndSubmit(events);
    act(() => page.setOpen(false));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    pending.resolve({ key: testKey, apiKey: { name: 'Try it' } });
    await waitFor(() => expect(toast.error).toHaveBeenCalled());
    expect(toast.error.mock.calls[0]?.[0]).toContain('Try it');

    await events.click(screen.getByRole('button', { name: 'Create API Key' }));
    expect(screen.getByRole('heading', { name: 'Create API Key' })).toBeInTheDocument();
    expect(screen.queryByTestId('new-api-key')).toBeNull();
    expect(screen.getByLabelText('Key name')).toHaveValue('');
  });

  it('keeps the one-time reveal open on Escape and a press outside; Done closes it', async () => {
    const events = userEvent.setup();
    render(withClient(<CreateKeyDialog />));
    await events.click(screen.getByRole('button', { name: 'Create API Key' }));
    await fillAndSubmit(events);
    expect(await screen.findByTestId('new-api-key')).toHaveTextContent(testKey);

    await events.keyboard('{Escape}');
    pressOutside();
    await settle();
    expect(screen.getByTestId('new-api-key')).toHaveTextContent(testKey);

    await events.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await events.click(screen.getByRole('button', { name: 'Create API Key' }));
    expect(screen.queryByTestId('new-api-key')).toBeNull();
  });

  it('refuses a key without API Access, saying why', async () => {
    const events = userEvent.setup();
    render(withClient(<CreateKeyDialog />));
    await events.click(screen.getByRole('button', { name: 'Create API Key' }));
    await events.click(screen.getByLabelText('Admin Access'));
    await events.click(screen.getByLabelText('API Access'));
    await fillAndSubmit(events);
    expect(await screen.findByRole('alert')).toHaveTextContent(API_KEY_PERMISSION_MESSAGES.apiRequired);
    expect(mutateAsync).not.toHaveBeenCalled();
  });
});
