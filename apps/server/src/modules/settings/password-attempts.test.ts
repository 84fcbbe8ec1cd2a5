import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUserWithSession, type TestApp } from '../../../test/helpers.ts';
import { hashPassword } from '../../lib/password.ts';
import { jsonHeaders } from '../portal/portal-testing.ts';
import { WRONG_CURRENT_PASSWORD } from '@conductor/shared/schemas/settings';
import { PASSWORD_CHECKS } from './settings.routes.ts';

describe('changing the password: wrong current passwords', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(async () => harness.close());

  const change = (cookie: string, currentPassword: string) =>
    harness.app.inject({
      method: 'POST',
      url: '/api/v1/settings/password',
      headers: jsonHeaders(cookie),
      payload: JSON.stringify({ currentPassword, newPassword: 'Brand-New-Passw0rd', confirmPassword: 'Brand-New-Passw0rd' }),
    });

  it('are limited per account: after five, even the right one waits, and other accounts are not affected', async () => {
    const { cookie } = await createUserWithSession(harness.app, { passwordHash: await hashPassword('Current-Passw0rd') });
    for (let attempt = 0; attempt < PASSWORD_CHECKS.points; attempt += 1) {
      expect((await change(cookie, `Guess-${attempt}-A1`)).statusCode).toBe(400);
    }
    const blocked = await change(cookie, 'Current-Passw0rd');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.message).toBe('Too many wrong current passwords. Please wait 15 minutes and try again.');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(800);

    const other = await createUserWithSession(harness.app, { passwordHash: await hashPassword('Other-Passw0rd') });
    expect((await change(other.cookie, 'Other-Passw0rd')).statusCode).toBe(200);
  });

  it('are forgotten after a successful change', async () => {
    const { cookie } = await createUserWithSession(harness.app, { passwordHash: await hashPassword('Current-Passw0rd') });
    for (let attempt = 0; attempt < PASSWORD_CHECKS.points - 1; attempt += 1) await change(cookie, `Guess-${attempt}-A1`);
    expect((await change(cookie, 'Current-Passw0rd')).statusCode).toBe(200);
    // The counter starts again: four more wrong ones are still answered as wrong, not throttled.
    for (let attempt = 0; attempt < PASSWORD_CHECKS.points - 1; attempt += 1) {
      expect((await change(cookie, `Guess-${attempt}-B1`)).statusCode).toBe(400);
    }
  });

  it('sent at once, reach the password check only as often as the limit allows (each reserves its try first)', async () => {
    const { cookie } = await createUserWithSession(harness.app, { passwordHash: await hashPassword('Current-Passw0rd') });
    const answers = await Promise.all(Array.from({ length: 50 }, (_, attempt) => change(cookie, `Guess-${attempt}-C1`)));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 400)).toHaveLength(PASSWORD_CHECKS.points);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50 - PASSWORD_CHECKS.points);
    for (const answer of answers.filter((candidate) => candidate.statusCode === 400)) {
      expect(answer.json().error.fields.currentPassword).toBe(WRONG_CURRENT_PASSWORD);
    }
    expect((await change(cookie, 'Current-Passw0rd')).statusCode).toBe(429);
  });

  it('are not counted when the password was right but the change was refused for another reason', async () => {
    const { cookie } = await createUserWithSession(harness.app, { passwordHash: await hashPassword('Current-Passw0rd') });
    for (let attempt = 0; attempt < PASSWORD_CHECKS.points + 2; attempt += 1) {
      const same = await harness.app.inject({
        method: 'POST',
        url: '/api/v1/settings/password',
        headers: jsonHeaders(cookie),
        payload: JSON.stringify({
          currentPassword: 'Current-Passw0rd',
          newPassword: 'Current-Passw0rd',
          confirmPassword: 'Current-Passw0rd',
        }),
      });
      expect(same.statusCode).toBe(400);
      expect(same.json().error.fields.newPassword).toBeDefined();
    }
    expect((await change(cookie, 'Current-Passw0rd')).statusCode).toBe(200);
  });

  it('are not forgotten by a change that checks no password (a new name)', async () => {
    const { cookie, user } = await createUserWithSession(harness.app, { passwordHash: await hashPassword('Current-Passw0rd') });
    const rename = (name: string) =>
      harness.app.inject({
        method: 'PATCH',
        url: '/api/v1/settings/profile',
        headers: jsonHeaders(cookie),
        payload: JSON.stringify({ name, email: user.email }),
      });
    for (let attempt = 0; attempt < PASSWORD_CHECKS.points - 1; attempt += 1) await change(cookie, `Guess-${attempt}-D1`);
    expect((await rename('Renamed Once')).statusCode).toBe(200);
    expect((await change(cookie, 'Guess-last-D1')).statusCode).toBe(400);
    expect((await change(cookie, 'Current-Passw0rd')).statusCode).toBe(429);
  });

  it('count wrong passwords given to change the e-mail too, against the same limit', async () => {
    const { cookie, user } = await createUserWithSession(harness.app, { passwordHash: await hashPassword('Current-Passw0rd') });
    for (let attempt = 0; attempt < PASSWORD_CHECKS.points; attempt += 1) {
      const response = await harness.app.inject({
        method: 'PATCH',
        url: '/api/v1/settings/profile',
        headers: jsonHeaders(cookie),
        payload: JSON.stringify({ name: user.name, email: `new-${attempt}@example.org`, currentPassword: `Guess-${attempt}-A1` }),
      });
      expect(response.statusCode).toBe(400);
    }
    expect((await change(cookie, 'Current-Passw0rd')).statusCode).toBe(429);
  });
});
