import { randomUUID } from 'node:crypto';
import { CONTACT_TOPIC_LABELS, type ContactTopic } from '@conductor/shared/schemas/contact';
import type { Database } from '../../db/client.ts';
import type { Mailer } from '../../lib/mailer.ts';
import type { ConfirmationAllowance } from '../support/confirmation-limit.ts';
import { insertContactMessage } from './contact.repository.ts';

export interface ContactInput {
  name: string;
  email: string;
  company: string;
  topic: ContactTopic;
  message: string;
}

export interface ContactDependencies {
  db: Database;
  mailer: Mailer;
  now(): number;
  /** Bounds the confirmations mailed to one address (the sender's claim, not verified). */
  mayConfirm: ConfirmationAllowance;
}

export const contactReference = (number: number) => `C-${number}`;

/**
 * Stores the message, then confirms it by e-mail (at most a few times an hour per address). The
 * stored message is what matters: a mail failure is logged and a mail over that cap skipped,
 * neither reported as a failed submission (the visitor would resend).
 */
export async function submitContactMessage(
  deps: ContactDependencies,
  input: ContactInput,
  userId: string | null,
): Promise<{ id: string; reference: string }> {
  const label = CONTACT_TOPIC_LABELS[input.topic];
  const stored = await insertContactMessage(deps.db, {
    id: randomUUID(),
    userId,
    name: input.name,
    email: input.email,
    subject: input.company ? `${label} (${input.company})` : label,
    category: input.topic,
    description: input.message,
    createdAt: new Date(deps.now()),
  });
  const reference = contactReference(stored.number);
  if (!(await deps.mayConfirm(input.email))) return { id: stored.id, reference };
  await deps.mailer.notify({
    to: input.email,
    kind: 'contact_confirmation',
    subject: `We received your message [${reference}]`,
    text: confirmationText(label, reference),
  });
  return { id: stored.id, reference };
}

/**
 * Only our own words and the reference: the address is the sender's claim, not verified, so
 * nothing they typed (name, message) is mailed to it; otherwise the form would send anyone
 * text of a stranger's choosing from our domain.
 */
function confirmationText(label: string, reference: string): string {
  return [
    'Hello,',
    '',
    `Thanks for getting in touch with Conductor. Your message about "${label}" reached us and has the reference ${reference}.`,
    'Someone from the team will reply to this address within one business day (Mon-Fri 9AM-6PM EST).',
    '',
    'If you did not send this message, you can ignore this e-mail.',
    '',
    'The Conductor team',
  ].join('\n');
}
