import type { ContactRequest } from '@conductor/shared/schemas/contact';
import { CheckCircle2, Loader2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { z } from 'zod';
import { Button } from '~/components/ui/button';
import { ApiError } from '~/lib/api-client';
import { useAuth } from '~/lib/auth';
import { cn } from '~/lib/cn';
import { useSchemaForm } from '~/lib/use-schema-form';
import { sendContactMessage } from '../api/contact';
import { CONTACT_TOPIC_LABELS, CONTACT_TOPICS } from '@conductor/shared/schemas/contact-topics';

type ContactOutput = z.output<typeof ContactRequest>;
type FieldName = keyof typeof DEFAULT_VALUES;

/** The shared schema (and zod with it) loads when the form is first used, not with the page. */
const loadContact = () => import('@conductor/shared/schemas/contact');
const loadSchema = () => loadContact().then((module) => module.ContactRequest);
const DEFAULT_VALUES = { name: '', email: '', company: '', topic: '', message: '' };

const inputClass = (invalid: boolean) =>
  cn(
    'mt-1.5 block w-full rounded-md border bg-background px-3 py-2 text-sm shadow-sm placeholder:text-muted-foreground',
    invalid ? 'border-danger' : 'border-input',
  );

/** The /contact form: validated with the shared schema, stored like a support ticket, confirmed by e-mail. */
export function ContactForm() {
  const [sent, setSent] = useState<{ reference: string; message: string } | null>(null);
  if (sent) {
    return (
      <div role="status" className="rounded-xl border border-border bg-success-soft p-6">
        <p className="flex items-center gap-2 font-semibold text-success">
          <CheckCircle2 className="size-5" aria-hidden="true" />
          Message sent · reference {sent.reference}
        </p>
        <p className="mt-2 text-sm">{sent.message}</p>
        <Button variant="secondary" className="mt-4" onClick={() => setSent(null)}>
          Send another message
        </Button>
      </div>
    );
  }
  // A fresh form (and form state) each time it is shown.
  return <ContactFormFields onSent={setSent} />;
}

function ContactFormFields({ onSent }: { onSent(result: { reference: string; message: string }): void }) {
  const { user } = useAuth();
  const userName = user?.name;
  const userEmail = user?.email;
  const [failure, setFailure] = useState<string | null>(null);
  const form = useSchemaForm<typeof DEFAULT_VALUES, ContactOutput>({ schema: loadSchema, defaultValues: DEFAULT_VALUES });
  const { register, errors, isSubmitting } = form;

  // A signed-in user's name and e-mail fill the fields they have not typed in yet.
  const latest = useRef(form);
  latest.current = form;
  useEffect(() => {
    const current = latest.current.getValues();
    if (userName && !current.name) latest.current.setValue('name', userName);
    if (userEmail && !current.email) latest.current.setValue('email', userEmail);
  }, [userName, userEmail]);

  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const response = await sendContactMessage(values);
      onSent({ reference: response.reference, message: response.message });
    } catch (error) {
      if (error instanceof ApiError && error.fields) {
        for (const [field, message] of Object.entries(error.fields))
          if (field in DEFAULT_VALUES) form.setError(field as FieldName, message);
      }
      // The module is loaded already: the form was validated with its schema before sending.
      setFailure(error instanceof ApiError && error.status === 429 ? error.message : (await loadContact()).CONTACT_MESSAGES.failure);
    }
  });

  const field = (name: FieldName) => ({
    id: `contact-${name}`,
    'aria-invalid': Boolean(errors[name]),
    'aria-describedby': errors[name] ? `contact-${name}-error` : undefined,
  });
  const error = (name: FieldName) =>
    errors[name] ? (
      <p id={`contact-${name}-error`} className="mt-1 text-sm text-danger">
        {errors[name]}
      </p>
    ) : null;

  return (
    <form
      onSubmit={onSubmit}
      onFocus={() => void form.preload()}
      noValidate
      className="space-y-5 rounded-xl border border-border bg-card p-6 shadow-sm"
      aria-label="Contact form"
    >
      <div className="grid gap-5 sm:grid-cols-2">
        <div>
          <label htmlFor="contact-name" className="text-sm font-medium">
            Full name
          </label>
          <input {...register('name')} {...field('name')} autoComplete="name" className={inputClass(Boolean(errors.name))} />
          {error('name')}
        </div>
        <div>
          <label htmlFor="contact-email" className="text-sm font-medium">
            Work email
          </label>
          <input
            {...register('email')}
            {...field('email')}
            type="email"
            autoComplete="email"
            className={inputClass(Boolean(errors.email))}
          />
          {error('email')}
        </div>
        <div>
          <label htmlFor="contact-company" className="text-sm font-medium">
            Company <span className="font-normal text-muted-foreground">(optional)</span>
          </label>
          <input
            {...register('company')}
            {...field('company')}
            autoComplete="organization"
            className={inputClass(Boolean(errors.company))}
          />
          {error('company')}
        </div>
        <div>
          <label htmlFor="contact-topic" className="text-sm font-medium">
            Topic
          </label>
          <select {...register('topic')} {...field('topic')} className={inputClass(Boolean(errors.topic))}>
            <option value="">Choose a topic</option>
            {CONTACT_TOPICS.map((topic) => (
              <option key={topic} value={topic}>
                {CONTACT_TOPIC_LABELS[topic]}
              </option>
            ))}
          </select>
          {error('topic')}
        </div>
      </div>
      <div>
        <label htmlFor="contact-message" className="text-sm font-medium">
          Message
        </label>
        <textarea {...register('message')} {...field('message')} rows={6} className={inputClass(Boolean(errors.message))} />
        {error('message')}
      </div>
      {failure && (
        <p role="alert" className="text-sm text-danger">
          {failure}
        </p>
      )}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-xs text-muted-foreground">
          We use your details only to answer you. See our{' '}
          <Link to="/privacy" className="underline underline-offset-2">
            privacy policy
          </Link>
          .
        </p>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting && <Loader2 className="size-4 animate-spin" aria-hidden="true" />}
          {isSubmitting ? 'Sending...' : 'Send message'}
        </Button>
      </div>
    </form>
  );
}
