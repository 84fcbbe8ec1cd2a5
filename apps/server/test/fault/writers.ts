/**
 * Concurrent writers for the crash tests: each loops on one kind of write against a server
 * process and records what the server acknowledged (a 2xx answer received by the client),
 * with the time of the acknowledgement. Writers stop at the first network error (the server
 * was killed); an error while the server was meant to be up is recorded as unexpected.
 */
import { HttpClient, multipart, PNG_1X1 } from './http-client.ts';

export const FAULT_PASSWORD = 'Fault-Tolerant-Pass-42';

/**
 * Registers an account on `client` and confirms its address with the link mailed to it (read from
 * the server's development outbox), as its owner would: a free trial of a paid plan needs it.
 */
export async function registerConfirmed(client: HttpClient, name: string, email: string): Promise<void> {
  const registered = await client.post('/api/v1/auth/register', { name, email, password: FAULT_PASSWORD });
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}: ${registered.text}`);
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const outbox = await client.get(`/api/v1/auth/dev-outbox?to=${encodeURIComponent(email)}&kind=email_verification`);
    const link = outbox.json<{ messages: { text: string }[] }>().messages[0]?.text.match(/https?:\/\/\S+/)?.[0];
    if (link) {
      const token = new URL(link).searchParams.get('token') ?? '';
      const confirmed = await client.post('/api/v1/auth/verify-email', { token });
      if (confirmed.status !== 200) throw new Error(`verify-email answered ${confirmed.status}: ${confirmed.text}`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no confirmation e-mail for ${email}`);
}

export interface Acked<T> {
  value: T;
  /** Date.now() when the 2xx answer had been read. */
  at: number;
}

export interface WriteLog {
  signups: Acked<{ email: string; cookie: string }>[];
  keysCreated: Acked<{ id: string; key: string; masked: string }>[];
  keysRevoked: Acked<{ id: string }>[];
  tickets: Acked<{ id: string; subject: string; attachments: number }>[];
  waitlist: Acked<{ email: string }>[];
  completions: Acked<{ requestId: string }>[];
  /** Answers that were neither 2xx nor a network error (should stay empty). */
  refused: string[];
  /** Network errors, with the time they happened (expected only once the server is gone). */
  networkErrors: { kind: string; at: number; message: string }[];
}

export function emptyLog(): WriteLog {
  return { signups: [], keysCreated: [], keysRevoked: [], tickets: [], waitlist: [], completions: [], refused: [], networkErrors: [] };
}

export interface Workload {
  origin: string;
  /** The owner's session cookie (`cc_session=…`): keys and tickets are written as this user. */
  ownerCookie: string;
  /** A sandbox (`cc_test_sk_`) key of the owner, for metered gateway calls. */
  testKey: string;
  /** Distinguishes this run's e-mails and names. */
  run: string;
  /** Gateway calls per server lifetime stay under the owner's per-minute rate (enterprise: 1,000). */
  maxCompletions: number;
  /** Which writers to run (default: all). */
  kinds?: readonly WriterKind[];
}

export type WriterKind = 'signup' | 'key' | 'ticket' | 'waitlist' | 'completion';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the writers until `stop()` is called or the server goes away. */
export function startWriters(work: Workload, log: WriteLog): { stop(): void; done: Promise<void>; counts(): Record<WriterKind, number> } {
  let stopped = false;
  const kinds = new Set<WriterKind>(work.kinds ?? ['signup', 'key', 'ticket', 'waitlist', 'completion']);
  const counts: Record<WriterKind, number> = { signup: 0, key: 0, ticket: 0, waitlist: 0, completion: 0 };
  let sequence = 0;
  const next = () => ++sequence;

  /** Loops `step` until stopped; a network error ends the loop. */
  const loop = async (kind: WriterKind, step: () => Promise<void>) => {
    while (!stopped) {
      try {
        await step();
      } catch (error) {
        log.networkErrors.push({ kind, at: Date.now(), message: (error as Error).message });
        return;
      }
    }
  };
  const refuse = (kind: string, status: number, text: string): void => {
    log.refused.push(`${kind} -> ${status} ${text.slice(0, 200)}`);
  };

  const signup = async () => {
    const client = new HttpClient({ origin: work.origin });
    await loop('signup', async () => {
      const email = `fault-${work.run}-${next()}@example.com`;
      client.jar.clear();
      const response = await client.post('/api/v1/auth/register', { name: 'Fault Tester', email, password: FAULT_PASSWORD });
      if (response.status !== 201) return refuse('signup', response.status, response.text);
      const session = client.jar.get('cc_session');
      log.signups.push({ value: { email, cookie: `cc_session=${session}` }, at: Date.now() });
      counts.signup += 1;
    });
    client.close();
  };

  const keys = async () => {
    const client = new HttpClient({ origin: work.origin });
    const headers = { cookie: work.ownerCookie };
    await loop('key', async () => {
      const active = log.keysCreated.filter((created) => !log.keysRevoked.some((revoked) => revoked.value.id === created.value.id));
      if (active.length >= 30) {
        const oldest = active[0];
        if (!oldest) return;
        // Claim it first, so two writers never revoke the same key.
        log.keysRevoked.push({ value: { id: oldest.value.id }, at: Number.NaN });
        const entry = log.keysRevoked.at(-1);
        const response = await client.request(`/api/v1/api-keys/${oldest.value.id}`, { method: 'DELETE', headers });
        if (response.status !== 200 || response.json<{ status: string }>().status !== 'revoked') {
          refuse('revoke', response.status, response.text);
          return;
        }
        if (entry) entry.at = Date.now();
        return;
      }
      const response = await client.post(
        '/api/v1/api-keys',
        { name: `fault key ${next()}`, environment: 'test', permissions: ['api'] },
        headers,
      );
      if (response.status !== 201) return refuse('key', response.status, response.text);
      const body = response.json<{ key: string; apiKey: { id: string; masked: string } }>();
      log.keysCreated.push({ value: { id: body.apiKey.id, key: body.key, masked: body.apiKey.masked }, at: Date.now() });
      counts.key += 1;
    });
    client.close();
  };

  const tickets = async () => {
    let client = new HttpClient({ origin: work.origin });
    let sent = 0;
    await loop('ticket', async () => {
      // 30 tickets per address and hour: a new address every 20.
      if (sent > 0 && sent % 20 === 0) {
        client.close();
        client = new HttpClient({ origin: work.origin });
      }
      sent += 1;
      const subject = `fault ticket ${work.run} ${next()}`;
      const withFile = sent % 3 === 0;
      const form = multipart(
        { subject, priority: 'low', category: 'technical', description: `Written while the server may be killed (${subject}).` },
        withFile ? [{ field: 'attachments', filename: 'screen.png', contentType: 'image/png', data: PNG_1X1 }] : [],
      );
      const response = await client.request('/api/v1/support/tickets', {
        method: 'POST',
        body: form.body,
        headers: { 'content-type': form.contentType, cookie: work.ownerCookie },
      });
      if (response.status !== 201) return refuse('ticket', response.status, response.text);
      const ticket = response.json<{ ticket: { id: string; attachments: unknown[] } }>().ticket;
      log.tickets.push({ value: { id: ticket.id, subject, attachments: ticket.attachments.length }, at: Date.now() });
      counts.ticket += 1;
    });
    client.close();
  };

  const waitlist = async () => {
    let client = new HttpClient({ origin: work.origin });
    let sent = 0;
    await loop('waitlist', async () => {
      // 20 sign-ups per address and 10 minutes: a new address every 15.
      if (sent > 0 && sent % 15 === 0) {
        client.close();
        client = new HttpClient({ origin: work.origin });
      }
      sent += 1;
      const email = `waitlist-${work.run}-${next()}@example.com`;
      const response = await client.post('/v1/waitlist', { email, source: 'footer' });
      if (response.status !== 201) return refuse('waitlist', response.status, response.text);
      log.waitlist.push({ value: { email }, at: Date.now() });
      counts.waitlist += 1;
      await sleep(10);
    });
    client.close();
  };

  let completionsSent = 0;
  const completion = async () => {
    const client = new HttpClient({ origin: work.origin });
    const headers = { authorization: `Bearer ${work.testKey}` };
    await loop('completion', async () => {
      if (completionsSent >= work.maxCompletions) {
        await sleep(20);
        return;
      }
      completionsSent += 1;
      const response = await client.post(
        '/v1/chat/completions',
        { model: 'gpt-4o-mini', messages: [{ role: 'user', content: `crash test ${next()}` }] },
        headers,
      );
      if (response.status !== 200) return refuse('completion', response.status, response.text);
      log.completions.push({ value: { requestId: String(response.headers['x-request-id']) }, at: Date.now() });
      counts.completion += 1;
      await sleep(15);
    });
    client.close();
  };

  const running: Promise<void>[] = [];
  if (kinds.has('signup')) running.push(signup(), signup());
  if (kinds.has('key')) running.push(keys(), keys());
  if (kinds.has('ticket')) running.push(tickets(), tickets());
  if (kinds.has('waitlist')) running.push(waitlist());
  if (kinds.has('completion')) running.push(completion(), completion(), completion(), completion());
  return {
    stop() {
      stopped = true;
    },
    done: Promise.all(running).then(() => undefined),
    counts: () => ({ ...counts }),
  };
}
