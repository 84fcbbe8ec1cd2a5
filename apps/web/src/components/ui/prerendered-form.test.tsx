import { act, screen, waitFor } from '@testing-library/react';
import type { FormEvent } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PrerenderedForm } from './prerendered-form';

const SERVER_HTML =
  '<div class="contents"><form aria-label="Ticket"><input id="subject" name="subject" aria-label="Subject"/><button>Send</button></form></div>';

const submitted = vi.fn();

/** The form's component, as its module gives it. */
function LiveForm({ note }: { note: string }) {
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submitted(new FormData(event.currentTarget).get('subject'));
  };
  return (
    <form aria-label="Ticket" data-live={note} onSubmit={onSubmit}>
      <input id="subject" name="subject" aria-label="Subject" defaultValue="" />
      <button type="submit">Send</button>
    </form>
  );
}

function setUp() {
  submitted.mockClear();
  const load = vi.fn(async () => ({ default: LiveForm }));
  const container = document.createElement('div');
  document.body.append(container);
  return { load, container };
}

const liveForm = () => document.querySelector('form[data-live]');

afterEach(() => {
  document.body.innerHTML = '';
});

describe('PrerenderedForm', () => {
  it('keeps the prerendered form, then loads the live one on first use with what was typed and focused', async () => {
    const { load, container } = setUp();
    container.innerHTML = SERVER_HTML;
    const recoverable = vi.fn();
    await act(async () => {
      hydrateRoot(container, <PrerenderedForm load={load} props={{ note: 'live' }} />, { onRecoverableError: recoverable });
    });
    expect(load).not.toHaveBeenCalled();
    expect(recoverable).not.toHaveBeenCalled();

    const kept = screen.getByLabelText<HTMLInputElement>('Subject');
    kept.value = 'Streams stop';
    await act(async () => {
      kept.focus();
      kept.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
    });
    await waitFor(() => expect(liveForm()).not.toBeNull());
    expect(load).toHaveBeenCalledTimes(1);
    const live = screen.getByLabelText<HTMLInputElement>('Subject');
    expect(live).not.toBe(kept);
    expect(live.value).toBe('Streams stop');
    expect(document.activeElement).toBe(live);
  });

  it('makes a submit of the prerendered form again once the live one is there', async () => {
    const { load, container } = setUp();
    container.innerHTML = SERVER_HTML;
    await act(async () => {
      hydrateRoot(container, <PrerenderedForm load={load} props={{ note: 'live' }} />);
    });
    screen.getByLabelText<HTMLInputElement>('Subject').value = 'Billing';
    const submit = new Event('submit', { bubbles: true, cancelable: true });
    await act(async () => {
      screen.getByRole('form', { name: 'Ticket' }).dispatchEvent(submit);
    });
    expect(submit.defaultPrevented).toBe(true);
    await waitFor(() => expect(submitted).toHaveBeenCalledWith('Billing'));
  });

  it('loads at once when eager, and on a client-side render', async () => {
    const eager = setUp();
    eager.container.innerHTML = SERVER_HTML;
    await act(async () => {
      hydrateRoot(eager.container, <PrerenderedForm load={eager.load} props={{ note: 'eager' }} eager />);
    });
    await waitFor(() => expect(document.querySelector('form[data-live="eager"]')).not.toBeNull());

    const client = setUp();
    await act(async () => {
      createRoot(client.container).render(<PrerenderedForm load={client.load} props={{ note: 'client' }} />);
    });
    await waitFor(() => expect(document.querySelector('form[data-live="client"]')).not.toBeNull());
  });
});
