import { describe, expect, it } from 'vitest';
import { detectAttachmentType, SupportTicketFields, TICKET_MESSAGES } from './support.ts';

const bytes = (...values: number[]) => new Uint8Array(values);

describe('detectAttachmentType', () => {
  it('recognises PNG, JPEG and PDF by their signatures', () => {
    expect(detectAttachmentType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBe('image/png');
    expect(detectAttachmentType(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0))).toBe('image/jpeg');
    expect(detectAttachmentType(new TextEncoder().encode('%PDF-1.7'))).toBe('application/pdf');
  });

  it('refuses everything else, whatever the file is called', () => {
    expect(detectAttachmentType(new TextEncoder().encode('MZ\x90\x00'))).toBeNull(); // a Windows program
    expect(detectAttachmentType(bytes(0x89, 0x50, 0x4e, 0x47))).toBeNull(); // a truncated PNG signature
    expect(detectAttachmentType(new TextEncoder().encode('GIF89a'))).toBeNull();
    expect(detectAttachmentType(bytes())).toBeNull();
  });
});

describe('SupportTicketFields', () => {
  const valid = { subject: 'Help', priority: 'low', category: 'billing', description: 'Details' };

  it('requires a subject and a description with the form messages', () => {
    const result = SupportTicketFields.safeParse({ ...valid, subject: '   ', description: '' });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(result.error?.issues.map((issue) => [issue.path[0], issue.message]) ?? []);
    expect(messages).toEqual({ subject: TICKET_MESSAGES.subjectRequired, description: TICKET_MESSAGES.descriptionRequired });
  });

  it('accepts a valid ticket with an optional visitor e-mail, and refuses a malformed one', () => {
    expect(SupportTicketFields.parse({ ...valid, email: '' }).subject).toBe('Help');
    expect(SupportTicketFields.safeParse({ ...valid, email: 'ada@example.com' }).success).toBe(true);
    expect(SupportTicketFields.safeParse({ ...valid, email: 'not-an-address' }).success).toBe(false);
    expect(SupportTicketFields.safeParse({ ...valid, priority: 'whenever' }).success).toBe(false);
  });
});
