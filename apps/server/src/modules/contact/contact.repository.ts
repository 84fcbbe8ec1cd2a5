import type { Database } from '../../db/client.ts';
import { supportTickets } from '../../db/schema/index.ts';

export interface NewContactMessage {
  id: string;
  userId: string | null;
  name: string;
  email: string;
  subject: string;
  category: string;
  description: string;
  createdAt: Date;
}

/** Contact-form messages live with support tickets (channel `contact`), so the team triages one queue. */
export async function insertContactMessage(db: Database, message: NewContactMessage): Promise<{ id: string; number: number }> {
  const [row] = await db
    .insert(supportTickets)
    .values({ ...message, priority: 'normal', channel: 'contact', status: 'open' })
    .returning({ id: supportTickets.id, number: supportTickets.number });
  if (!row) throw new Error('contact message was not stored');
  return row;
}
