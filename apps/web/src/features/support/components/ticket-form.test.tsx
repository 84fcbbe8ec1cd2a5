import { MESSAGES } from '@conductor/shared';
import { type SupportTicketCreated, TICKET_MESSAGES } from '@conductor/shared/schemas/support';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PrerenderedForm } from '~/components/ui/prerendered-form';
import { onServerError, onUnauthorized } from '~/lib/api-client';
import { toast } from '~/lib/toast';
import { submitTicket } from '../api/tickets';
import { TicketForm } from './ticket-form';

vi.mock('../api/tickets', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../api/tickets')>();
  return { ...actual, submitTicket: vi.fn(actual.submitTicket) };
});
vi.mock('~/lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const png = (name: string) => new File([PNG], name, { type: 'image/png' });
const VISITOR = { name: 'Ada Visitor', email: 'ada@example.com', subject: 'Streams stop', description: 'After three chunks.' };

const created = (files: File[]): SupportTicketCreated => ({
  ticket: {
    id: 't1',
    number: 7,
    subject: VISITOR.subject,
    priority: 'medium',
    category: 'technical',
    description: VISITOR.description,
    status: 'open',
    email: VISITOR.email,
    createdAt: '2025-01-01T00:00:00.000Z',
    attachments: files.map((file, index) => ({ id: `a${index}`, filename: file.name, mimeType: 'image/png', sizeBytes: file.size })),
  },
  message: TICKET_MESSAGES.created(7),
});

/** Puts `files` into a file input as a pick does (the input's files, then a `change`). */
function pick(input: HTMLInputElement, files: File[]) {
  const transfer = new DataTransfer();
  for (const file of files) transfer.items.add(file);
  input.files = transfer.files;
  fireEvent.change(input);
}

const fileInput = (root: ParentNode = document) => root.querySelector<HTMLInputElement>('input[type="file"]')!;
const listed = () => within(screen.getByRole('list', { name: 'Attached files' }));

function fillIn(root: ParentNode) {
  for (const [name, value] of Object.entries(VISITOR)) {
    const control = root.querySelector<HTMLInputElement | HTMLTextAreaElement>(`[name="${name}"]`)!;
    control.value = value;
  }
}

/** An XMLHttpRequest that answers every upload with `status`, `body` and `headers` (lower-case names). */
function answerUploadsWith(status: number, body: unknown, headers: Record<string, string> = {}) {
  class FakeRequest extends EventTarget {
    status = 0;
    response: unknown = null;
    responseType = '';
    timeout = 0;
    upload = new EventTarget();
    open() {}
    setRequestHeader() {}
    getResponseHeader(name: string) {
      return headers[name.toLowerCase()] ?? null;
    }
    send() {
      setTimeout(() => {
        this.status = status;
        this.response = body;
        this.dispatchEvent(new Event('load'));
      });
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeRequest);
}

beforeEach(() => {
  vi.mocked(submitTicket).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

describe('ticket form', () => {
  it('sends the file picked with a ticket submitted before the form’s code had loaded', async () => {
    vi.mocked(submitTicket).mockImplementationOnce(async (_fields, files) => created(files));
    // The page as prerendered: the form kept as HTML until it is first used.
    const container = document.createElement('div');
    container.innerHTML = `<div class="contents">${renderToString(<TicketForm />)}</div>`;
    document.body.append(container);
    let arrive: () => void = () => undefined;
    const arrived = new Promise<{ default: typeof TicketForm }>((resolve) => {
      arrive = () => resolve({ default: TicketForm });
    });
    const load = () => arrived;
    await act(async () => {
      hydrateRoot(container, <PrerenderedForm load={load} props={{ liveChat: null }} />);
    });

    // The visitor types, picks a file and submits, all before the code arrives.
    const kept = container.querySelector('form')!;
    fillIn(kept);
    const screenshot = png('screenshot.png');
    const transfer = new DataTransfer();
    transfer.items.add(screenshot);
    fileInput(kept).files = transfer.files;
    fileInput(kept).dispatchEvent(new Event('change', { bubbles: true }));
    const submit = new Event('submit', { bubbles: true, cancelable: true });
    kept.dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(true);

    await act(async () => arrive());
    await waitFor(() => expect(submitTicket).toHaveBeenCalledTimes(1));
    const [fields, files] = vi.mocked(submitTicket).mock.calls[0]!;
    expect(fields).toMatchObject(VISITOR);
    expect(files).toEqual([screenshot]);
    expect(await screen.findByText('Ticket #7 created')).toBeInTheDocument();
    expect(screen.getByText('Attached: screenshot.png')).toBeInTheDocument();
  });

  it('keeps both of two quick picks, and a file removed while another is checked stays removed', async () => {
    render(<TicketForm />);
    pick(fileInput(), [png('first.png')]);
    pick(fileInput(), [png('second.png')]);
    await waitFor(() => expect(listed().getByText('second.png')).toBeInTheDocument());
    expect(listed().getByText('first.png')).toBeInTheDocument();

    pick(fileInput(), [png('third.png')]);
    fireEvent.click(screen.getByRole('button', { name: 'Remove first.png' }));
    await waitFor(() => expect(listed().getByText('third.png')).toBeInTheDocument());
    expect(listed().queryByText('first.png')).toBeNull();
    expect(listed().getByText('second.png')).toBeInTheDocument();
  });

  it('announces a server error as the shared client does (one toast), and says under the form that the ticket was not sent', async () => {
    answerUploadsWith(500, { error: { code: 'internal', message: 'boom' } });
    const serverErrors = vi.fn();
    const off = onServerError(serverErrors);
    try {
      render(<TicketForm />);
      fillIn(document);
      fireEvent.submit(screen.getByRole('form', { name: 'Support ticket' }));
      expect(await screen.findByText(TICKET_MESSAGES.failure)).toBeInTheDocument();
      expect(serverErrors).toHaveBeenCalledTimes(1);
      expect(toast.error).not.toHaveBeenCalled();
      expect(screen.queryByText(MESSAGES.serverError)).toBeNull();
    } finally {
      off();
    }
  });

  it('reports an ended session through the shared 401 handling (the spec’s toast), not by clearing the session itself', async () => {
    answerUploadsWith(401, { error: { code: 'session_expired', message: TICKET_MESSAGES.sessionEnded } });
    const unauthorized = vi.fn();
    const off = onUnauthorized(unauthorized);
    try {
      render(<TicketForm />);
      fillIn(document);
      fireEvent.submit(screen.getByRole('form', { name: 'Support ticket' }));
      expect(await screen.findByText(TICKET_MESSAGES.sessionEnded)).toBeInTheDocument();
      expect(unauthorized).toHaveBeenCalledTimes(1);
      expect(toast.error).not.toHaveBeenCalled();
    } finally {
      off();
    }
  });

  describe('a ticket refused for now shows the server’s message as a toast', () => {
    const BUSY = 'We are receiving other attachments right now. Try again in 30 seconds, or send your ticket without attachments.';
    const BUDGET = 'Signed-out visitors can attach up to 50 MB a day from one network, and yours has reached that.';
    const ONE_AT_A_TIME = 'A ticket with attachments from your network is still being uploaded.';

    async function submitAndExpectToast(message: string) {
      const serverErrors = vi.fn();
      const off = onServerError(serverErrors);
      try {
        render(<TicketForm />);
        fillIn(document);
        pick(fileInput(), [png('screenshot.png')]);
        await waitFor(() => expect(listed().getByText('screenshot.png')).toBeInTheDocument());
        fireEvent.submit(screen.getByRole('form', { name: 'Support ticket' }));
        await waitFor(() => expect(toast.error).toHaveBeenCalledWith(message));
        expect(toast.error).toHaveBeenCalledTimes(1);
        // Not a server error: no server-error toast, and not the generic failure.
        expect(serverErrors).not.toHaveBeenCalled();
        expect(screen.queryByText(TICKET_MESSAGES.failure)).toBeNull();
        // The form stays as filled in, to send again.
        expect(listed().getByText('screenshot.png')).toBeInTheDocument();
        expect(screen.getByRole('button', { name: 'Submit Ticket' })).toBeEnabled();
      } finally {
        off();
      }
    }

    it('503 with Retry-After: the server is busy with other uploads', async () => {
      answerUploadsWith(503, { error: { code: 'attachments_busy', message: BUSY } }, { 'retry-after': '30' });
      await submitAndExpectToast(BUSY);
    });

    it('429: one upload at a time from a network', async () => {
      answerUploadsWith(429, { error: { code: 'rate_limited', message: ONE_AT_A_TIME } }, { 'retry-after': '30' });
      await submitAndExpectToast(ONE_AT_A_TIME);
    });

    it('429: the day’s attachments spent, also shown at the attachments', async () => {
      answerUploadsWith(
        429,
        { error: { code: 'rate_limited', message: BUDGET, fields: { attachments: BUDGET } } },
        { 'retry-after': '3600' },
      );
      await submitAndExpectToast(BUDGET);
      expect(screen.getByText(BUDGET)).toBeInTheDocument();
    });

    it('a 503 without our envelope is still a server error (its toast, not a message of ours)', async () => {
      answerUploadsWith(503, null);
      const serverErrors = vi.fn();
      const off = onServerError(serverErrors);
      try {
        render(<TicketForm />);
        fillIn(document);
        fireEvent.submit(screen.getByRole('form', { name: 'Support ticket' }));
        expect(await screen.findByText(TICKET_MESSAGES.failure)).toBeInTheDocument();
        expect(serverErrors).toHaveBeenCalledTimes(1);
        expect(toast.error).not.toHaveBeenCalled();
      } finally {
        off();
      }
    });
  });
});
