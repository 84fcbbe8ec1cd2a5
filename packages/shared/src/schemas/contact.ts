import { z } from 'zod';
import { CONTACT_TOPICS } from './contact-topics.ts';
import { Email, PersonName, withoutControlCharacters } from './fields.ts';

export * from './contact-topics.ts';

export const CONTACT_MESSAGES = {
  topicRequired: 'Choose what your message is about',
  messageRequired: 'Message is required',
  messageTooShort: 'Please write at least 20 characters so we can help',
  messageTooLong: 'Message must be at most 5,000 characters',
  companyTooLong: 'Company must be at most 120 characters',
  success: 'Thanks! Your message is on its way. We have sent a confirmation to your inbox and will reply within one business day.',
  failure: 'We could not send your message. Please try again in a moment.',
} as const;

/** `POST /api/v1/contact`: the /contact page's form, used by the browser form and the server. */
export const ContactRequest = z.strictObject({
  name: PersonName,
  email: Email,
  company: z
    .string()
    .trim()
    .max(120, CONTACT_MESSAGES.companyTooLong)
    .refine(...withoutControlCharacters('Company'))
    .optional()
    .default(''),
  topic: z.enum(CONTACT_TOPICS, { error: CONTACT_MESSAGES.topicRequired }),
  message: z
    .string({ error: CONTACT_MESSAGES.messageRequired })
    .trim()
    .min(1, CONTACT_MESSAGES.messageRequired)
    .min(20, CONTACT_MESSAGES.messageTooShort)
    .max(5_000, CONTACT_MESSAGES.messageTooLong)
    .refine(...withoutControlCharacters('Message')),
});
export type ContactRequest = z.input<typeof ContactRequest>;

export const ContactResponse = z.object({
  id: z.string(),
  /** Human reference quoted in the confirmation e-mail, e.g. `C-1042`. */
  reference: z.string(),
  message: z.string(),
});
export type ContactResponse = z.infer<typeof ContactResponse>;
