import { TICKET_MESSAGES } from '@conductor/shared/schemas/support';
import { describe, expect, it } from 'vitest';
import { checkAttachments, formatBytes } from './attachments';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const file = (name: string, bytes: Uint8Array<ArrayBuffer>, type = 'image/png') => new File([bytes], name, { type });

describe('checkAttachments', () => {
  it('accepts PNG, JPG and PDF content', async () => {
    const pdf = new TextEncoder().encode('%PDF-1.4\n');
    const jpg = new Uint8Array([0xff, 0xd8, 0xff, 0xe1, 1, 2, 3]);
    expect(await checkAttachments([file('a.png', new Uint8Array(PNG_SIGNATURE)), file('b.pdf', pdf), file('c.jpg', jpg)])).toBeNull();
  });

  it('refuses by content, not by name, and names the file', async () => {
    const program = new TextEncoder().encode('MZ\u0090\u0000\u0003');
    expect(await checkAttachments([file('holiday.png', program)])).toBe(TICKET_MESSAGES.attachmentType('holiday.png'));
  });

  it('refuses files over 10 MB, empty files and more than five files', async () => {
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(PNG_SIGNATURE);
    expect(await checkAttachments([file('big.png', big)])).toBe(TICKET_MESSAGES.attachmentTooLarge('big.png'));
    expect(await checkAttachments([file('empty.png', new Uint8Array())])).toBe(TICKET_MESSAGES.attachmentEmpty('empty.png'));
    const six = Array.from({ length: 6 }, (_, index) => file(`${index}.png`, new Uint8Array(PNG_SIGNATURE)));
    expect(await checkAttachments(six)).toBe(TICKET_MESSAGES.tooManyAttachments);
  });

  it('refuses more than 25 MB in all, as the server does', async () => {
    const nineMb = new Uint8Array(9 * 1024 * 1024);
    nineMb.set(PNG_SIGNATURE);
    const two = [file('a.png', nineMb), file('b.png', nineMb)];
    expect(await checkAttachments(two)).toBeNull();
    expect(await checkAttachments([...two, file('c.png', nineMb)])).toBe(TICKET_MESSAGES.attachmentsTooLargeInTotal);
  });
});

describe('formatBytes', () => {
  it('shows bytes, kilobytes and megabytes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2 KB');
    expect(formatBytes(11 * 1024 * 1024)).toBe('11.0 MB');
  });
});
