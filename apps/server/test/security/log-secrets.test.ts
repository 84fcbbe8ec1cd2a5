/**
 * No secret in the logs, measured on the real server process at LOG_LEVEL=trace: every line
 * it writes (stdout and stderr) through register, sign-in (good and bad), a password reset by
 * e-mail, API keys (live and test), gateway calls (sandbox, hosted key, the user's own key, an
 * upstream error that echoes the key, an unknown key), provider keys saved through onboarding
 * and settings, and a password change. E-mail goes to a fake SMTP server here: without
 * SMTP_URL the development outbox prints e-mails (reset links included) to the log on purpose.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../fault/http-client.ts';
import { jsonLines, type ServerProcess, startServerProcess } from '../fault/server-process.ts';
import { closeFakes, type Fakes, fake, HOSTED_KEYS, startFakes, upstreamEnv } from '../gateway/gateway-helpers.ts';
import { createTestDatabase, type TestDatabase } from '../helpers.ts';

interface SmtpMessage {
  from: string;
  to: string[];
  data: string;
}

/** Just enough SMTP (no TLS, no auth) for nodemailer to deliver to 127.0.0.1. */
async function startFakeSmtp(): Promise<{ server: Server; port: number; messages: SmtpMessage[] }> {
  const messages: SmtpMessage[] = [];
  const server = createServer((socket: Socket) => {
    let buffer = '';
    let inData = false;
    let current: SmtpMessage = { from: '', to: [], data: '' };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 fake-smtp ESMTP ready');
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let index = buffer.indexOf('\r\n');
      while (index !== -1) {
        const line = buffer.slice(0, index);
        buffer = buffer.slice(index + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            messages.push(current);
            current = { from: '', to: [], data: '' };
            reply('250 2.0.0 queued');
          } else {
            current.data += `${line.startsWith('..') ? line.slice(1) : line}\r\n`;
          }
        } else {
          const command = line.slice(0, 4).toUpperCase();
          if (command === 'EHLO' || command === 'HELO') reply('250 fake-smtp');
          else if (command === 'MAIL') {
            current.from = line;
            reply('250 2.1.0 ok');
          } else if (command === 'RCPT') {
            current.to.push(line);
            reply('250 2.1.5 ok');
          } else if (command === 'DATA') {
            inData = true;
            reply('354 end with <CRLF>.<CRLF>');
          } else if (command === 'QUIT') {
            reply('221 bye');
            socket.end();
          } else reply('250 ok');
        }
        index = buffer.indexOf('\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0, messages };
}

/** A quoted-printable body back to text (soft line breaks and =XX escapes). */
function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

const PASSWORD = 'Lantern-Quiet-Harbour-51';
const WRONG_PASSWORD = 'Lantern-Wrong-Guess-52';
const RESET_PASSWORD = 'Lantern-After-Reset-53';
const CHANGED_PASSWORD = 'Lantern-Changed-Later-54';
const BYOK_OPENAI = `sk-byokLogCheck${randomBytes(12).toString('hex')}`;
const BYOK_ANTHROPIC = `sk-ant-byokLogCheck${randomBytes(12).toString('hex')}`;
const SESSION_SECRET = randomBytes(32).toString('hex');
const ENCRYPTION_KEY = randomBytes(32).toString('hex');

describe('secrets never reach the logs (server process, LOG_LEVEL=trace)', () => {
  let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;
  let fakes: Fakes;
  let database: TestDatabase;
  let server: ServerProcess;

  beforeAll(async () => {
    smtp = await startFakeSmtp();
    fakes = await startFakes(['openai', 'anthropic']);
    database = await createTestDatabase();
    server = await startServerProcess({
      env: {
        LOG_LEVEL: 'trace',
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        SESSION_SECRET,
        ENCRYPTION_KEY,
        UPSTREAM_ALLOW_LOCAL: 'true',
        ...upstreamEnv(fakes),
        ...(database.url ? { DATABASE_URL: database.url } : {}),
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await closeFakes(fakes);
    await new Promise((resolve) => smtp?.server.close(resolve));
    await database?.drop();
  });

  it('through accounts, password reset, keys, gateway calls and provider keys', async () => {
    const secrets: Record<string, string> = {
      PASSWORD,
      WRONG_PASSWORD,
      RESET_PASSWORD,
      CHANGED_PASSWORD,
      BYOK_OPENAI,
      BYOK_ANTHROPIC,
      SESSION_SECRET,
      ENCRYPTION_KEY,
      HOSTED_OPENAI: HOSTED_KEYS.openai,
      HOSTED_ANTHROPIC: HOSTED_KEYS.anthropic,
    };
    const browser = new HttpClient({ origin: server.origin });
    const email = `logs-${randomBytes(4).toString('hex')}@example.com`;
    const session = (label: string) => {
      secrets[label] = browser.jar.get('cc_session') ?? `missing ${label}`;
    };

    expect((await browser.post('/api/v1/auth/register', { name: 'Log Reader', email, password: PASSWORD })).status).toBe(201);
    session('SESSION_REGISTER');
    expect((await browser.post('/api/v1/auth/login', { email, password: WRONG_PASSWORD })).status).toBe(401);
    expect((await browser.post('/api/v1/auth/login', { email, password: PASSWORD, remember: true })).status).toBe(200);
    session('SESSION_LOGIN');

    // Password reset: the link travels by SMTP only.
    expect((await browser.post('/api/v1/auth/forgot-password', { email })).status).toBe(200);
    const mailed = (pattern: RegExp) =>
      smtp.messages.map((message) => pattern.exec(decodeQuotedPrintable(message.data))?.[0]).find(Boolean);
    const resetPattern = /https?:\/\/\S+\/reset-password\?token=[A-Za-z0-9_-]+/;
    await expect.poll(() => mailed(resetPattern), { timeout: 10_000 }).toBeTruthy();
    const link = mailed(resetPattern) ?? '';
    // The confirmation link mailed on registration is as secret.
    const confirmation = mailed(/https?:\/\/\S+\/verify-email\?token=[A-Za-z0-9._-]+/) ?? '';
    secrets.VERIFY_TOKEN = new URL(confirmation).searchParams.get('token') ?? '';
    expect(secrets.VERIFY_TOKEN.length).toBeGreaterThan(40);
    await browser.get(`/verify-email?token=${secrets.VERIFY_TOKEN}`);
    expect((await browser.post('/api/v1/auth/verify-email', { token: secrets.VERIFY_TOKEN })).status).toBe(200);
    const token = new URL(link).searchParams.get('token') ?? '';
    expect(token.length).toBeGreaterThan(20);
    secrets.RESET_TOKEN = token;
    secrets.RESET_LINK = link;
    await browser.get(`/reset-password?token=${token}`);
    expect((await browser.post('/api/v1/auth/reset-password', { token, password: RESET_PASSWORD })).status).toBe(200);
    expect((await browser.post('/api/v1/auth/login', { email, password: RESET_PASSWORD })).status).toBe(200);
    session('SESSION_AFTER_RESET');

    // API keys, shown once.
    const live = (await browser.post('/api/v1/api-keys', { name: 'live', environment: 'live', permissions: ['api'] })).json<{
      key: string;
    }>().key;
    const test = (await browser.post('/api/v1/api-keys', { name: 'test', environment: 'test', permissions: ['api'] })).json<{
      key: string;
    }>().key;
    Object.assign(secrets, {
      LIVE_KEY: live,
      TEST_KEY: test,
      LIVE_KEY_HIDDEN_PART: live.slice(16, -4),
      TEST_KEY_HIDDEN_PART: test.slice(16, -4),
    });
    const unknownKey = `cc_live_sk_${randomBytes(32).toString('base64url')}`;
    secrets.UNKNOWN_KEY = unknownKey;

    const chat = (key: string, body: object = {}) =>
      browser.post(
        '/v1/chat/completions',
        { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }], ...body },
        { authorization: `Bearer ${key}` },
      );
    expect((await chat(test)).status).toBe(200);
    expect((await chat(test, { stream: true })).status).toBe(200);
    expect((await chat(live)).status).toBe(200);
    expect(fake(fakes, 'openai').requests.at(-1)?.apiKey).toBe(HOSTED_KEYS.openai);
    // An upstream whose error message echoes the key it was sent (some providers do).
    fake(fakes, 'openai').enqueue({
      kind: 'status',
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${HOSTED_KEYS.openai}` } },
    });
    expect((await chat(live)).status).toBeGreaterThanOrEqual(400);
    expect((await chat(unknownKey)).status).toBe(401);
    expect((await browser.get('/v1/models', { authorization: `Bearer ${live}` })).status).toBe(200);

    // The user's own provider keys: onboarding, then settings; the gateway then uses them.
    expect((await browser.post('/api/v1/onboarding/provider-keys', { openai: BYOK_OPENAI })).status).toBe(200);
    expect((await browser.post('/api/v1/settings/provider-keys/anthropic', { key: BYOK_ANTHROPIC })).status).toBe(200);
    expect((await chat(live, { stream: true })).status).toBe(200);
    expect(fake(fakes, 'openai').requests.at(-1)?.apiKey).toBe(BYOK_OPENAI);
    expect((await chat(live, { model: 'claude-3-5-haiku' })).status).toBe(200);
    expect(fake(fakes, 'anthropic').requests.at(-1)?.apiKey).toBe(BYOK_ANTHROPIC);

    const changed = await browser.post('/api/v1/settings/password', {
      currentPassword: RESET_PASSWORD,
      newPassword: CHANGED_PASSWORD,
      confirmPassword: CHANGED_PASSWORD,
    });
    expect(changed.status).toBe(200);
    session('SESSION_AFTER_CHANGE');
    expect((await browser.post('/api/v1/auth/logout')).status).toBe(200);
    browser.close();

    // The last lines reach the pipe: wait until every incoming request has its completion line.
    const logged = (message: string) => jsonLines(server.output).filter((line) => line.msg === message).length;
    for (let waited = 0; waited < 5_000 && logged('request completed') < logged('incoming request'); waited += 25) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const lines = server.output;
    const parsed = jsonLines(lines);
    // Structured JSON, a request id on every request's lines; e-mail went out over SMTP, not to the log.
    const incoming = parsed.filter((line) => line.msg === 'incoming request');
    expect(incoming.length).toBeGreaterThanOrEqual(20);
    expect(incoming.every((line) => typeof line.reqId === 'string')).toBe(true);
    expect(lines.some((line) => line.includes('development outbox e-mail'))).toBe(false);
    expect(lines.some((line) => line.includes('/reset-password?token=%5Bredacted%5D'))).toBe(true);

    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret.length, name).toBeGreaterThan(8);
      const leaks = lines.filter((line) => line.includes(secret));
      expect(leaks, `${name} appears in the logs`).toEqual([]);
    }
    process.stdout.write(`[log-secrets] ${lines.length} log lines scanned for ${Object.keys(secrets).length} secrets: none found\n`);
  }, 60_000);
});
