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
