import {
  type SupportTicket,
  SupportTicketFields,
  TICKET_CATEGORIES,
  TICKET_CATEGORY_LABELS,
  TICKET_MESSAGES,
  TICKET_PRIORITIES,
  TICKET_PRIORITY_LABELS,
  type TicketCategory,
} from '@conductor/shared/schemas/support';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Info } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '~/components/ui/button';
import { Field, fieldAria } from '~/components/ui/field';
import { Input, inputClasses } from '~/components/ui/input';
import { Select } from '~/components/ui/select';
import { ApiError } from '~/lib/api-client';
import { useAuth } from '~/lib/auth';
import { supportKeys, submitTicket } from '../api/tickets';
import { checkAttachments } from '../attachments';
import { AttachmentPicker } from './attachment-picker';

type Values = z.input<typeof SupportTicketFields>;

export interface TicketPrefill {
  subject: string;
  category: TicketCategory;
  note: string;
  /** Changes on every request to prefill, so the same prefill can be applied twice. */
  nonce: number;
}

/** Visitors also give a name and an e-mail address (signed-in users' come from their account). */
function schemaFor(signedIn: boolean) {
  if (signedIn) return SupportTicketFields;
  return SupportTicketFields.superRefine((values, context) => {
    if (!values.name?.trim()) context.addIssue({ code: 'custom', path: ['name'], message: TICKET_MESSAGES.nameRequired });
    if (!values.email?.trim()) context.addIssue({ code: 'custom', path: ['email'], message: TICKET_MESSAGES.emailRequired });
  });
}

const EMPTY: Values = { subject: '', priority: 'medium', category: 'technical', description: '', name: '', email: '' };

/** The support ticket form: subject, priority, category, description and attachments, with upload progress. */
export function TicketForm({ prefill }: { prefill?: TicketPrefill | null }) {
  const { user, isAuthenticated } = useAuth();
  const queryClient = useQueryClient();
  // The form outlives sign-in state changes: the resolver reads the current state when it runs.
  const signedIn = useRef(isAuthenticated);
  signedIn.current = isAuthenticated;
  const resolver = useMemo<Resolver<Values>>(
    () => (values, context, options) => zodResolver(schemaFor(signedIn.current))(values, context, options),
    [],
  );
  const form = useForm<Values>({ resolver, defaultValues: EMPTY });
  const [files, setFiles] = useState<File[]>([]);
  const [attachmentError, setAttachmentError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [created, setCreated] = useState<SupportTicket | null>(null);
  const container = useRef<HTMLDivElement>(null);
  const { errors, isSubmitting } = form.formState;

  useEffect(() => {
    if (!prefill) return;
    setCreated(null);
    form.setValue('subject', prefill.subject);
    form.setValue('category', prefill.category);
    container.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    form.setFocus('description');
  }, [prefill, form]);

  const addFiles = async (added: File[]) => {
    if (added.length === 0) return;
    const next = [...files, ...added];
    const problem = await checkAttachments(next);
    setAttachmentError(problem);
    if (!problem) setFiles(next);
  };

  const onSubmit = form.handleSubmit(async (values) => {
    setSubmitError(null);
    const problem = await checkAttachments(files);
    if (problem) return setAttachmentError(problem);
    setProgress(0);
    try {
      const result = await submitTicket(SupportTicketFields.parse(values), files, setProgress);
      setCreated(result.ticket);
      form.reset(EMPTY);
      setFiles([]);
      setAttachmentError(null);
      void queryClient.invalidateQueries({ queryKey: supportKeys.tickets() });
    } catch (error) {
      const message = error instanceof ApiError ? error.message : TICKET_MESSAGES.failure;
      if (error instanceof ApiError && error.fields?.attachments) setAttachmentError(error.fields.attachments);
      for (const [name, text] of Object.entries(error instanceof ApiError ? (error.fields ?? {}) : {})) {
        if (name in EMPTY) form.setError(name as keyof Values, { message: text });
      }
      setSubmitError(message);
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
      {prefill?.note && (
        <p
          className="mb-4 flex gap-2 rounded-lg border border-primary/30 bg-accent p-3 text-sm text-accent-foreground"
          data-testid="live-chat-note"
        >
          <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
          {prefill.note}
        </p>
      )}
      <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Support ticket">
        {!isAuthenticated ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <Field id="ticket-name" label="Name" error={errors.name?.message}>
              <Input {...fieldAria('ticket-name', errors.name?.message)} autoComplete="name" {...form.register('name')} />
            </Field>
            <Field id="ticket-email" label="Email" error={errors.email?.message}>
              <Input {...fieldAria('ticket-email', errors.email?.message)} type="email" autoComplete="email" {...form.register('email')} />
            </Field>
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">
            Signed in as <strong className="text-foreground">{user?.email}</strong>: we&apos;ll reply there.
          </p>
        )}
        <Field id="ticket-subject" label="Subject" error={errors.subject?.message}>
          <Input
            {...fieldAria('ticket-subject', errors.subject?.message)}
            placeholder="Brief description of your issue"
            {...form.register('subject')}
          />
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="ticket-priority" label="Priority" error={errors.priority?.message}>
            <Select {...fieldAria('ticket-priority', errors.priority?.message)} className="w-full" {...form.register('priority')}>
              {TICKET_PRIORITIES.map((priority) => (
                <option key={priority} value={priority}>
                  {TICKET_PRIORITY_LABELS[priority]}
                </option>
              ))}
            </Select>
          </Field>
          <Field id="ticket-category" label="Category" error={errors.category?.message}>
            <Select {...fieldAria('ticket-category', errors.category?.message)} className="w-full" {...form.register('category')}>
              {TICKET_CATEGORIES.map((category) => (
                <option key={category} value={category}>
                  {TICKET_CATEGORY_LABELS[category]}
                </option>
              ))}
            </Select>
          </Field>
        </div>
        <Field id="ticket-description" label="Description" error={errors.description?.message}>
          <textarea
            {...fieldAria('ticket-description', errors.description?.message)}
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
          onAdd={(added) => void addFiles(added)}
          onRemove={(index) => {
            setFiles((current) => current.filter((_, position) => position !== index));
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
