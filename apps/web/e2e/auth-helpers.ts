import { request as httpRequest } from 'node:http';
import { type APIRequestContext, expect, type Page } from '@playwright/test';

/** Account-flow helpers for the auth*.spec.ts files. */

export const PASSWORD = 'Harbour-Lantern-42';

import { uniqueEmail } from './public-helpers';

export { allowFailedResources, uniqueEmail } from './public-helpers';

/** Registers through the API; with `page.request` the page's browser context is signed in too. */
export async function registerAccount(request: APIRequestContext, label: string) {
  const account = { name: 'Test Person', email: uniqueEmail(label), password: PASSWORD };
  const response = await request.post('/api/v1/auth/register', { data: account });
  expect(response.status()).toBe(201);
  return account;
}

/** The password reset link from the development outbox (the e-mail goes out just after the answer). */
export function readResetLink(request: APIRequestContext, email: string): Promise<URL> {
  return readMailedLink(request, email, 'password_reset');
}

/** The e-mail confirmation link mailed on registration. */
export function readConfirmationLink(request: APIRequestContext, email: string): Promise<URL> {
  return readMailedLink(request, email, 'email_verification');
}

async function readMailedLink(request: APIRequestContext, email: string, kind: string): Promise<URL> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/v1/auth/dev-outbox?to=${encodeURIComponent(email)}&kind=${kind}`);
        const { messages } = (await response.json()) as { messages: { text: string }[] };
        link = messages[0]?.text.match(/https?:\/\/\S+/)?.[0];
        return link;
      },
      { timeout: 15_000 },
    )
    .toBeTruthy();
  return new URL(link ?? '');
}

export async function expectToast(page: Page, text: string | RegExp): Promise<void> {
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: text }).first()).toBeVisible();
}

/**
 * Confirms the account's address with the link mailed on registration, in its own session, as the
 * owner would. Sent from an address of its own in 127/8: the server allows 30 link uses per client
 * address in 15 minutes, and every other spec's links come from 127.0.0.1.
 */
export async function confirmEmail(page: Page, email: string) {
  const link = await readConfirmationLink(page.request, email);
  const origin = new URL(link.href).origin;
  const cookie = (await page.context().cookies(origin)).map(({ name, value }) => `${name}=${value}`).join('; ');
  const body = JSON.stringify({ token: link.searchParams.get('token') });
  const localAddress = `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
  const status = await new Promise<number>((resolve, reject) => {
    const outgoing = httpRequest(
      `${origin}/api/v1/auth/verify-email`,
      { method: 'POST', localAddress, headers: { cookie, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
  expect(status).toBe(200);
}
