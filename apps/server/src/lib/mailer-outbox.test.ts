import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { outboxEmails } from '../db/schema/index.ts';
import { createMailer } from './mailer.ts';

/** Everything logged, at every level, as JSON. */
function capturingLog() {
  const lines: string[] = [];
  const keep = (obj: object, msg: string) => lines.push(JSON.stringify({ obj, msg }));
  return { lines, log: { info: keep, warn: keep, error: keep } };
}

describe('the outbox without SMTP', () => {
  let harness: TestApp;
  const link = 'https://conductor.example/reset-password?token=one-time-secret-token';

  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(async () => {
    await harness.close();
  });

  async function sendWith(nodeEnv: 'development' | 'production', to: string) {
    const { context } = harness.app;
    const { lines, log } = capturingLog();
    const mailer = createMailer(
      {
        env: { ...context.env, NODE_ENV: nodeEnv, SMTP_URL: undefined },
        database: context.database,
        clock: context.clock,
        secrets: context.secrets,
      },
      log,
    );
    await mailer.send({ to, subject: 'Reset your password', text: `Open ${link}`, kind: 'password_reset' });
    const [row] = await context.database.db.select().from(outboxEmails).where(eq(outboxEmails.to, to));
    return { lines, row };
  }

  it('in development keeps and logs the body, so a developer can follow the link', async () => {
    const { lines, row } = await sendWith('development', 'dev@example.com');
    expect(row?.text).toContain(link);
    expect(lines.some((line) => line.includes('one-time-secret-token'))).toBe(true);
  });

  it('in production neither logs nor stores the body, and says that mail is not delivered', async () => {
    const { lines, row } = await sendWith('production', 'prod@example.com');
    expect(row?.text).toBe('[not delivered: SMTP_URL is not set; body not stored]');
    expect(lines.join('\n')).not.toContain('one-time-secret-token');
    expect(lines.some((line) => line.includes('SMTP_URL is not set: e-mail (password reset links, notices) is not delivered'))).toBe(true);
    expect(lines.some((line) => line.includes('e-mail not delivered: SMTP_URL is not set') && line.includes('prod@example.com'))).toBe(
      true,
    );
  });
});
