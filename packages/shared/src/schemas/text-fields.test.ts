import { describe, expect, it } from 'vitest';
import { CreateApiKeyInput } from './api-keys.ts';
import { LoginRequest } from './auth.ts';
import { ContactRequest } from './contact.ts';
import { PersonName } from './fields.ts';
import { SupportTicketFields } from './support.ts';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;
const UNREADABLE = 'must be readable text: no control, direction-changing or only invisible characters';

describe('free text refuses what PostgreSQL cannot store, with a 400 message instead of a 500', () => {
  const ticket = { subject: 'Help', priority: 'low', category: 'technical', description: 'It broke.' };
  const contact = { name: 'Zed Zedson', email: 'z@example.com', topic: 'sales', message: 'Hello, this is a long enough message.' };

  it.each([
    ['subject', 'Sub\u0000ject', 'Subject must not contain control characters'],
    ['description', 'a\u0000b', 'Description must not contain control characters'],
    ['name', 'A\u0000B', `Name ${UNREADABLE}`],
  ])('a ticket with a NUL in its %s', (field, value, message) => {
    expect(firstMessage(SupportTicketFields.safeParse({ ...ticket, [field]: value }))).toBe(message);
  });

  it.each([
    ['company', 'A\u0000B', 'Company must not contain control characters'],
    ['message', 'Hello, this is a long enough message.\u0000', 'Message must not contain control characters'],
  ])('a contact message with a NUL in its %s', (field, value, message) => {
    expect(firstMessage(ContactRequest.safeParse({ ...contact, [field]: value }))).toBe(message);
  });

  it('keeps line breaks and tabs in multi-line text', () => {
    expect(SupportTicketFields.safeParse({ ...ticket, description: 'Steps:\n\t1. call\r\n\t2. fail' }).success).toBe(true);
    expect(ContactRequest.safeParse({ ...contact, message: 'Line one is here,\nline two is here too.' }).success).toBe(true);
  });
});

describe('names people read', () => {
  it.each([
    ['only zero-width spaces', '\u200b\u200b'],
    ['a right-to-left override', 'Bob\u202eexe.gnp'],
    ['a directional isolate', 'Bob\u2066x'],
    ['a control character', 'Bo\u0007b'],
  ])('refuses a person’s name with %s', (_case, name) => {
    expect(firstMessage(PersonName.safeParse(name))).toBe(`Name ${UNREADABLE}`);
  });

  it('refuses an API key name with a right-to-left override', () => {
    expect(firstMessage(CreateApiKeyInput.safeParse({ name: '\u202egnp.exe', environment: 'live', permissions: ['api'] }))).toBe(
      `Key name ${UNREADABLE}`,
    );
  });

  it('accepts names whose scripts use joiners, and emoji sequences', () => {
    for (const name of ['Ada Lovelace', 'Zoë', 'مریم\u200cزاده', '李小龍', 'Dev 👩\u200d💻'])
      expect(PersonName.safeParse(name).success).toBe(true);
  });
});

describe('sign-in password length', () => {
  it('says a too-long password is too long, not missing', () => {
    expect(firstMessage(LoginRequest.safeParse({ email: 'a@example.com', password: 'x'.repeat(129) }))).toBe(
      'Password must be at most 128 characters',
    );
  });
});
