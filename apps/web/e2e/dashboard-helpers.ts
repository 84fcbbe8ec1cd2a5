import { DEMO_CREDENTIALS } from '@conductor/shared';
import { expect, type Page } from '@playwright/test';

export { horizontalOverflow } from './public-helpers';

/**
 * Sessions for the dashboard specs: new accounts through the real register endpoint, the
 * seeded demo account through the real login endpoint (both share the page's cookies).
 */
export async function registerUser(page: Page, name = 'Grace Hopper'): Promise<{ email: string; password: string; name: string }> {
  const email = `e2e-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = 'Sturdy-Passw0rd-42';
  const response = await page.request.post('/api/v1/auth/register', { data: { name, email, password } });
  expect(response.status(), await response.text()).toBe(201);
  return { email, password, name };
}

/** A new account that has finished onboarding (hosted), so the dashboard opens. */
export async function registerOnboardedUser(page: Page, name?: string) {
  const account = await registerUser(page, name);
  const response = await page.request.post('/api/v1/onboarding/complete', { data: { mode: 'hosted' } });
  expect(response.status()).toBe(200);
  return account;
}

export async function signInAsDemo(page: Page): Promise<void> {
  const response = await page.request.post('/api/v1/auth/login', {
    data: { email: DEMO_CREDENTIALS.email, password: DEMO_CREDENTIALS.password, remember: false },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** Drops the console lines Chromium prints for non-2xx answers a test provokes on purpose. */
export function allowFailedStatuses(consoleErrors: string[], statuses: number[]): void {
  const expected = new RegExp(`Failed to load resource: the server responded with a status of (${statuses.join('|')})\\b`);
  const kept = consoleErrors.filter((message) => !expected.test(message));
  consoleErrors.splice(0, consoleErrors.length, ...kept);
}
