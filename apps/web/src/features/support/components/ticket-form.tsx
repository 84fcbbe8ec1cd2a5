import { SUPPORT } from '@conductor/shared';
import type { SupportTicket, SupportTicketFields } from '@conductor/shared/schemas/support';
import { CheckCircle2, Info } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Button } from '~/components/ui/button';
import { Field, fieldAria } from '~/components/ui/field';
import { Input, inputClasses } from '~/components/ui/input';
import { Select } from '~/components/ui/select';
import { ApiError } from '~/lib/api-client';
import { useAuth } from '~/lib/auth';
import { toast } from '~/lib/toast';
import { wasAnnounced } from '~/lib/toast-failure';
import { type FormSchema, useSchemaForm } from '~/lib/use-schema-form';
import { checkAttachments } from '../attachments';
import {
  TICKET_CATEGORIES,
  TICKET_CATEGORY_LABELS,
  TICKET_PRIORITIES,
  TICKET_PRIORITY_LABELS,
} from '@conductor/shared/schemas/support-options';
import { AttachmentPicker } from './attachment-picker';

/** What a request for a live chat (the support centre's Start Chat) fills in. */
const LIVE_CHAT: { subject: string; category: (typeof TICKET_CATEGORIES)[number]; note: string } = {
  subject: 'Live chat request',
  category: 'technical',
  note: `Live chat is staffed ${SUPPORT.hours}, and available 24/7 for Pro+ customers. Tell us what you need below: your message goes straight to the support team, and we reply ${SUPPORT.responseTime}.`,
};

/** The shared module (schema, messages, and zod with them) loads when the form is first used, not with the page. */
const loadSupport = () => import('@conductor/shared/schemas/support');

/**
 * The schema for whoever is filling the form in when it is checked: visitors also give a name
 * and an e-mail address (signed-in users' come from their account).
 */
function schemaFor(signedIn: { current: boolean }) {
  return async (): Promise<FormSchema<SupportTicketFields>> => {
    const { SupportTicketFields, TICKET_MESSAGES } = await loadSupport();
    const visitor = SupportTicketFields.superRefine((values, context) => {
      if (!values.name?.trim()) context.addIssue({ code: 'custom', path: ['name'], message: TICKET_MESSAGES.nameRequired });
      if (!values.email?.trim()) context.addIssue({ code: 'custom', path: ['email'], message: TICKET_MESSAGES.emailRequired });
    });
    return { safeParse: (values) => (signedIn.current ? SupportTicketFields : visitor).safeParse(values) };
  };
}

const EMPTY = { subject: '', priority: 'medium', category: 'technical', description: '', name: '', email: '' };
type FieldName = keyof typeof EMPTY;

/**
 * An answer that says "not now": 429 (a limit of the sender's: tickets an hour, one upload at a
 * time, the day's attachments) or a 503 the upload kept the server's message for (busy with other
 * uploads). Not one the client announced already (a server error has had its own toast).
 */
function isRefusedForNow(error: unknown): error is ApiError {
  return error instanceof ApiError && !error.announced && (error.status === 429 || error.status === 503);
}

/** Where the subject field sits in the window (null before the form is on the page). */
const subjectTop = (form: HTMLElement | null): number | null => form?.querySelector('#ticket-subject')?.getBoundingClientRect().top ?? null;

/**
 * The support ticket form: subject, priority, category, description and attachments, with
 * upload progress. `liveChat` is the time of the latest request for a live chat (null for
 * none): each one fills the form in for it.
 */
export function TicketForm({ liveChat = null }: { liveChat?: number | null }) {
  const { user, isAuthenticated } = useAuth();
  // The form outlives sign-in state changes: the schema reads the current state when it runs.
  const signedIn = useRef(isAuthenticated);
  // A sign-out while the form is on screen adds the name and e-mail row above what was being typed:
  // the page then scrolls by that row, so the fields in view stay where they were.
  const container = useRef<HTMLDivElement>(null);
  const signedOutFrom = useRef<number | null>(null);
  if (signedIn.current && !isAuthenticated) signedOutFrom.current = subjectTop(container.current);
  signedIn.current = isAuthenticated;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each change of sign-in state, when the row comes or goes
  useLayoutEffect(() => {
    const before = signedOutFrom.current;
    signedOutFrom.current = null;
    const after = subjectTop(container.current);
    if (before === null || after === null || before < 0 || before > window.innerHeight) return;
    window.scrollBy({ top: after - before, behavior: 'instant' });
  }, [isAuthenticated]);
  const [schema] = useState(() => schemaFor(signedIn));
  const form = useSchemaForm<typeof EMPTY, SupportTicketFields>({ schema, defaultValues: EMPTY });
  // The picked files: state for the picker, and a ref that the checks and the upload read. A second
  // pick made quickly, a removal while a pick is checked, or a submit made again at once when the code
  // arrives (see `PrerenderedForm`) would otherwise see the list of the render that made the handler.
  const [files, setFilesState] = useState<File[]>([]);
  const picked = useRef<File[]>([]);
  const setFiles = (next: File[]) => {
    picked.current = next;
    setFilesState(next);
  };
  /** The check of the latest pick: picks are checked one after another, and a submit waits for them. */
  const pickChecked = useRef<Promise<void>>(Promise.resolve());
  const [attachmentError, setAttachmentError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [created, setCreated] = useState<SupportTicket | null>(null);
  // After a session ended mid-ticket: the name field, shown by the sign-out, takes focus once rendered.
  const [focusName, setFocusName] = useState(false);
  const { errors, isSubmitting } = form;

  // A live chat request shows the form (after a created ticket, once it is back on screen) and fills it in.
  const latest = useRef(form);
  latest.current = form;
  const applied = useRef<number | null>(null);
  useEffect(() => {
    if (liveChat === null || applied.current === liveChat) return;
    if (created) return setCreated(null);
    applied.current = liveChat;
    latest.current.setValue('subject', LIVE_CHAT.subject);
    latest.current.setValue('category', LIVE_CHAT.category);
    container.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    // Without scrolling again: the form's top (the note on the live chat) stays in view under the header.
    latest.current.setFocus('description', { preventScroll: true });
  }, [liveChat, created]);

  useEffect(() => {
    if (!focusName || isAuthenticated) return;
    setFocusName(false);
    latest.current.setFocus('name');
  }, [focusName, isAuthenticated]);

  const addFiles = (added: File[]) => {
    if (added.length === 0) return;
    const check = pickChecked.current.then(async () => {
      let before: File[];
      let problem: string | null;
      // A file removed while the check ran: the list as it is now is checked again.
      do {
        before = picked.current;
        problem = await checkAttachments([...before, ...added]);
      } while (before !== picked.current);
      setAttachmentError(problem);
      if (!problem) setFiles([...before, ...added]);
    });
    // The rules could not load (offline, say): the pick is dropped, and the next one is checked anyway.
    pickChecked.current = check.catch(() => undefined);
  };

  const onSubmit = form.handleSubmit(async (values) => {
    setSubmitError(null);
    // A file picked just before, or handed over with this submit when the form's code arrived, may still be checked.
    await pickChecked.current;
    const attachments = picked.current;
    const problem = await checkAttachments(attachments);
    if (problem) return setAttachmentError(problem);
    setProgress(0);
    try {
      // The upload code (and the messages it reports with) loads with the first ticket sent.
      const { submitTicket } = await import('../api/tickets');
      const result = await submitTicket(values, attachments, setProgress, { asAccount: signedIn.current });
      setCreated(result.ticket);
      form.reset();
      setFiles([]);
      setAttachmentError(null);
      // The signed-in user's list (and TanStack Query with it) is loaded only when shown.
      if (signedIn.current) {
        void Promise.all([import('~/lib/query-client'), import('../api/tickets')]).then(([{ queryClient }, { supportKeys }]) =>
          queryClient.invalidateQueries({ queryKey: supportKeys.tickets() }),
        );
      }
    } catch (error) {
      // The module is loaded already: the form was checked with its schema before sending.
      const { TICKET_MESSAGES } = await loadSupport();
      // A server error has had its toast (the upload announces it as the shared client does): here only what it meant.
      const announcedServerError = wasAnnounced(error) && error instanceof ApiError && error.status >= 500;
      const message = error instanceof ApiError && !announcedServerError ? error.message : TICKET_MESSAGES.failure;
      if (error instanceof ApiError && error.code === 'session_expired') {
        // The session ended while the form was open; nothing was saved. The upload logged out (with the
        // spec's toast); the form stays as typed and now asks for the name and address the account gave before.
        setFocusName(true);
        form.setError('name', TICKET_MESSAGES.nameRequired);
        form.setError('email', TICKET_MESSAGES.emailRequired);
      }
      if (error instanceof ApiError && error.fields?.attachments) setAttachmentError(error.fields.attachments);
      for (const [name, text] of Object.entries(error instanceof ApiError ? (error.fields ?? {}) : {})) {
        if (name in EMPTY) form.setError(name as FieldName, text);
      }
      // Refused for now (a limit reached, the server busy with other uploads): the server's message, as a toast.
      if (isRefusedForNow(error)) toast.error(error.message);
      else setSubmitError(message);
    } finally {
      setProgress(null);
    }
  });

  if (created) {
    return (
      <div ref={container} role="status" className="scroll-mt-24 rounded-xl border border-success/40 bg-success-soft p-6">
        <CheckCircle2 className="size-6 text-success" aria-hidden />
        <h3 className="mt-3 text-lg font-semibold">Ticket #{created.number} created</h3>
        <p className="mt-1 text-sm">
          We&apos;ve e-mailed a confirmation to <strong>{created.email}</strong>. Our team replies within 24 hours (Mon-Fri 9AM-6PM EST).
        </p>
        {created.attachments.length > 0 && (
          <p className="mt-2 text-sm text-muted-foreground">
            Attached: {created.attachments.map((attachment) => attachment.filename).join(', ')}
          </p>
        )}
        <Button variant="secondary" className="mt-4" onClick={() => setCreated(null)}>
          Submit another ticket
        </Button>
      </div>
    );
  }

  const busy = isSubmitting || progress !== null;
  return (
    <div ref={container} className="scroll-mt-24">
      {liveChat !== null && (
        <p
          className="mb-4 flex gap-2 rounded-lg border border-primary/30 bg-accent p-3 text-sm text-accent-foreground"
          data-testid="live-chat-note"
        >
          <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
          {LIVE_CHAT.note}
        </p>
      )}
      <form onSubmit={onSubmit} onFocus={() => void form.preload()} noValidate className="space-y-4" aria-label="Support ticket">
        {!isAuthenticated ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="ticket-name" label="Name" error={errors.name}>
              <Input {...fieldAria('ticket-name', errors.name)} autoComplete="name" {...form.register('name')} />
            </Field>
            <Field id="ticket-email" label="Email" error={errors.email}>
              <Input {...fieldAria('ticket-email', errors.email)} type="email" autoComplete="email" {...form.register('email')} />
            </Field>
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">
            Signed in as <strong className="text-foreground">{user?.email}</strong>: we&apos;ll reply there.
          </p>
        )}
        <Field id="ticket-subject" label="Subject" error={errors.subject}>
          <Input
            {...fieldAria('ticket-subject', errors.subject)}
            placeholder="Brief description of your issue"
            {...form.register('subject')}
          />
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="ticket-priority" label="Priority" error={errors.priority}>
            <Select {...fieldAria('ticket-priority', errors.priority)} className="w-full" {...form.register('priority')}>
              {TICKET_PRIORITIES.map((priority) => (
                <option key={priority} value={priority}>
                  {TICKET_PRIORITY_LABELS[priority]}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="ticket-category" label="Category" error={errors.category}>
            <Select {...fieldAria('ticket-category', errors.category)} className="w-full" {...form.register('category')}>
              {TICKET_CATEGORIES.map((category) => (
                <option key={category} value={category}>
                  {TICKET_CATEGORY_LABELS[category]}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <Field id="ticket-description" label="Description" error={errors.description}>
          <textarea
            {...fieldAria('ticket-description', errors.description)}
            rows={6}
            placeholder="What happened, what you expected, and the x-request-id of a failing request if you have one"
            className={inputClasses('h-auto min-h-32 py-2')}
            {...form.register('description')}
          />
        </Field>
        <AttachmentPicker
          files={files}
          error={attachmentError}
          disabled={busy}
          onAdd={addFiles}
          onRemove={(index) => {
            setFiles(picked.current.filter((_, position) => position !== index));
            setAttachmentError(null);
          }}
        />
        {progress !== null && (
          <div className="space-y-1" data-testid="upload-progress">
            <div className="flex justify-between text-xs text-muted-foreground">
              <span>{progress < 100 ? 'Uploading…' : 'Processing…'}</span>
              <span className="tabular-nums">{progress}%</span>
            </div>
            <div
              role="progressbar"
              aria-label="Upload progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={progress}
              className="h-2 overflow-hidden rounded-full bg-muted"
            >
              <div className="h-full rounded-full bg-primary transition-[width] duration-150" style={{ width: `${progress}%` }} />
            </div>
          </div>
        )}
        {submitError && (
          <p role="alert" className="rounded-md border border-danger/30 bg-danger-soft px-3 py-2 text-sm text-danger">
            {submitError}
          </p>
        )}
        <Button type="submit" size="lg" className="w-full sm:w-auto" disabled={busy}>
          {busy ? 'Submitting...' : 'Submit Ticket'}
        </Button>
      </form>
    </div>
  );
}
