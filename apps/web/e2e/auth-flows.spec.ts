import type { Locator, Page } from '@playwright/test';
import { DEMO_CREDENTIALS, MESSAGES } from '@conductor/shared';
import { AUTH_COPY } from '@conductor/shared/schemas/auth-copy';
import {
  allowFailedResources,
  expectToast,
  PASSWORD,
  readConfirmationLink,
  readResetLink,
  registerAccount,
  uniqueEmail,
} from './auth-helpers';
import { signInAsDemo } from './dashboard-helpers';
import { expect, test, waitForHydration } from './fixtures';

test('register -> onboarding, with the welcome toast and the session cookie', async ({ page, context }) => {
  await page.goto('/register');
  await waitForHydration(page);
  const email = uniqueEmail('register');
  await page.getByLabel('Full name').fill('Ada Lovelace');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByLabel(/I agree to the/).check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expectToast(page, MESSAGES.register.success);
  await expectToast(page, MESSAGES.register.welcome);
  await expect(page).toHaveURL(/\/onboarding$/);

  const cookie = (await context.cookies()).find((entry) => entry.name === 'cc_session');
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  const stored = await page.evaluate(() => JSON.parse(window.localStorage.getItem('conductor-auth') ?? '{}'));
  expect(Object.keys(stored).sort()).toEqual(['isAuthenticated', 'user']);
  expect(stored.user.email).toBe(email);
  expect(JSON.stringify(stored)).not.toContain(cookie?.value ?? 'no-cookie');
});

test('demo login -> dashboard, then sign out', async ({ page }) => {
  // The dashboard's first view with 90 days of the demo account's usage: the slowest page to open.
  test.slow();
  await page.goto('/login');
  await waitForHydration(page);
  await page.getByRole('region', { name: 'Demo account' }).getByRole('button', { name: 'Use demo' }).click();
  await page.getByLabel('Remember me for 30 days').check();
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expectToast(page, MESSAGES.login.success);
  await expect(page).toHaveURL(/\/dashboard$/);

  // The menu's accessible name starts with the name it shows (voice control: "click Demo User").
  await page.getByRole('button', { name: `${DEMO_CREDENTIALS.name}, user menu`, exact: true }).click();
  await expect(page.getByRole('menu')).toContainText(DEMO_CREDENTIALS.email);
  await page.getByRole('menuitem', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/$/);
  const session = await page.request.get('/api/v1/auth/session');
  expect((await session.json()).isAuthenticated).toBe(false);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
});

test('a signed-in user visiting /login or /register lands on /dashboard', async ({ page }) => {
  const login = await page.request.post('/api/v1/auth/login', {
    data: { email: DEMO_CREDENTIALS.email, password: DEMO_CREDENTIALS.password },
  });
  expect(login.status()).toBe(200);
  for (const path of ['/login', '/register']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/dashboard$/);
  }
});

test('a dashboard page opened signed out is where the sign-in returns; a next page outside the dashboard is ignored', async ({ page }) => {
  await page.goto('/dashboard/billing?from=email');
  await expect(page).toHaveURL(/\/login\?next=%2Fdashboard%2Fbilling%3Ffrom%3Demail$/);
  await waitForHydration(page);
  await page.getByRole('region', { name: 'Demo account' }).getByRole('button', { name: 'Use demo' }).click();
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expectToast(page, MESSAGES.login.success);
  await expect(page).toHaveURL(/\/dashboard\/billing\?from=email$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Billing');

  // Already signed in: /login with a next page goes there at once; one elsewhere goes to /dashboard.
  await page.goto('/login?next=%2Fdashboard%2Fkeys');
  await expect(page).toHaveURL(/\/dashboard\/keys$/);
  await page.goto('/login?next=https%3A%2F%2Fevil.example%2Fdashboard');
  await expect(page).toHaveURL(/\/dashboard$/);
});

/** The page's stored `{ user, isAuthenticated }` snapshot (null when signed out). */
const storedAuth = (page: Page) => page.evaluate(() => window.localStorage.getItem('conductor-auth'));

/**
 * The page's session ends on the server side (its cookie goes, as expiry or a sign-out elsewhere
 * would), then the user comes back to the tab: its check finds the session gone and logs out with
 * the spec toast. First the page's own session check has confirmed the sign-in (on a loaded
 * machine it can land after the network went quiet): only a confirmed session is one that can end.
 */
async function endSessionAndReturnToTab(page: Page): Promise<void> {
  await expect.poll(() => storedAuth(page)).not.toBeNull();
  await page.context().clearCookies();
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await expectToast(page, MESSAGES.sessionExpired);
}

/** Where the element sits in the window once the page has stopped scrolling (the same for 100 ms). */
function settledTop(locator: Locator): Promise<number> {
  return locator.evaluate(
    (element) =>
      new Promise<number>((resolve) => {
        let last = Number.NaN;
        const check = () => {
          const top = element.getBoundingClientRect().top;
          if (top === last) resolve(top);
          else {
            last = top;
            setTimeout(check, 100);
          }
        };
        check();
      }),
  );
}

test.describe('a 401 in the middle of a session logs out with the spec toast', () => {
  for (const { path, heading, signIn } of [
    { path: '/onboarding', heading: 'Welcome, Test', signIn: (page: Page) => registerAccount(page.request, 'expired') },
    { path: '/dashboard/keys', heading: 'API Keys', signIn: signInAsDemo },
  ]) {
    test(`${path}, a page that needs a session, goes to /login`, async ({ page, consoleErrors }) => {
      await signIn(page);
      await page.goto(path);
      await waitForHydration(page);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      await endSessionAndReturnToTab(page);
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Welcome back');
      expect(await storedAuth(page)).toBeNull();
      allowFailedResources(consoleErrors, [401]);
    });
  }

  test('a public page stays as it was, signed out', async ({ page, consoleErrors }) => {
    const account = await registerAccount(page.request, 'expired-public');
    await page.goto('/support');
    await waitForHydration(page);
    await expect(page.getByText(`Signed in as ${account.email}`)).toBeVisible();
    await expect(page.getByText('No tickets yet')).toBeVisible();
    const subject = page.getByLabel('Subject');
    // Brought into view first, at once: typing into a field out of view scrolls to it smoothly
    // (the site's scroll-behavior), and on a loaded host that scroll could still be moving it.
    await subject.evaluate((element) => element.scrollIntoView({ block: 'center', behavior: 'instant' }));
    await subject.fill('Typed before the session ended');
    const topBefore = await settledTop(subject);
    await endSessionAndReturnToTab(page);
    // Signed out where the user was: the header offers sign-in (in the menu on a phone), the
    // ticket form asks for a name and e-mail, and what was typed is still there.
    await expect(page.getByRole('banner').getByRole('link', { name: 'Sign In', includeHidden: true })).toBeAttached();
    await expect(page.getByLabel('Name', { exact: true })).toBeVisible();
    await expect(subject).toHaveValue('Typed before the session ended');
    // The row added above it does not move the field being typed in.
    expect(Math.abs((await settledTop(subject)) - topBefore)).toBeLessThanOrEqual(1);
    await expect(page).toHaveURL(/\/support$/);
    expect(await storedAuth(page)).toBeNull();
    allowFailedResources(consoleErrors, [401]);
  });
});

test('forgot password -> e-mail in the outbox -> reset -> sign in with the new password', async ({ page, request }) => {
  // Registered in the page's browser: the address is confirmed first, with the link mailed on registration, by its own session.
  const account = await registerAccount(page.request, 'forgot');
  const confirmation = await readConfirmationLink(request, account.email);
  expect(confirmation.pathname).toBe('/verify-email');
  await page.goto(`${confirmation.pathname}${confirmation.search}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Confirm your email address');
  await expect(page.getByRole('status')).toHaveText(AUTH_COPY.verifyEmailDone);
  // Then, signed out, the password is forgotten.
  await page.context().clearCookies();
  await page.goto('/login');
  await waitForHydration(page);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reset your password');
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toContainText(AUTH_COPY.forgotPasswordSent);

  const link = await readResetLink(request, account.email);
  expect(link.pathname).toBe('/reset-password');
  await page.goto(`${link.pathname}${link.search}`);
  await waitForHydration(page);
  const newPassword = 'Fresh-Harbour-Lantern-77';
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expectToast(page, AUTH_COPY.resetDone);
  await expect(page).toHaveURL(/\/login$/);

  const old = await request.post('/api/v1/auth/login', { data: { email: account.email, password: PASSWORD } });
  expect(old.status()).toBe(401);
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expectToast(page, MESSAGES.login.success);
  // Not onboarded yet: the dashboard sends the user to onboarding.
  await expect(page).toHaveURL(/\/onboarding$/);
});

test('a used reset link says so as soon as it opens, before a password is typed, and offers a new one', async ({
  page,
  request,
  consoleErrors,
}) => {
  const account = await registerAccount(request, 'used-link');
  await request.post('/api/v1/auth/forgot-password', { data: { email: account.email } });
  const link = await readResetLink(request, account.email);
  const token = link.searchParams.get('token') ?? '';
  expect((await request.post('/api/v1/auth/reset-password', { data: { token, password: 'First-Reset-Lantern-1' } })).status()).toBe(200);
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByRole('alert')).toHaveText(AUTH_COPY.resetInvalid);
  await expect(page.getByLabel('New password', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/forgot-password');
  allowFailedResources(consoleErrors, [400]);
});

test('a reset link used elsewhere while its page is open says so on submit', async ({ page, request, consoleErrors }) => {
  const account = await registerAccount(request, 'used-meanwhile');
  await request.post('/api/v1/auth/forgot-password', { data: { email: account.email } });
  const link = await readResetLink(request, account.email);
  const token = link.searchParams.get('token') ?? '';
  const checked = page.waitForResponse((response) => response.url().endsWith('/api/v1/auth/reset-password/check'));
  await page.goto(`${link.pathname}${link.search}`);
  expect((await checked).status()).toBe(200);
  await waitForHydration(page);
  expect((await request.post('/api/v1/auth/reset-password', { data: { token, password: 'First-Reset-Lantern-1' } })).status()).toBe(200);
  await page.getByLabel('New password', { exact: true }).fill('Second-Reset-Lantern-2');
  await page.getByLabel('Confirm new password').fill('Second-Reset-Lantern-2');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByRole('alert')).toHaveText(AUTH_COPY.resetInvalid);
  await expect(page.getByRole('link', { name: 'Request a new link' })).toHaveAttribute('href', '/forgot-password');
  allowFailedResources(consoleErrors, [400]);
});

test('a reset of an unconfirmed account says what it removed', async ({ page, request }) => {
  const account = await registerAccount(request, 'unconfirmed');
  await request.post('/api/v1/auth/forgot-password', { data: { email: account.email } });
  const link = await readResetLink(request, account.email);
  await page.goto(`${link.pathname}${link.search}`);
  await waitForHydration(page);
  await page.getByLabel('New password', { exact: true }).fill('Fresh-Harbour-Lantern-78');
  await page.getByLabel('Confirm new password').fill('Fresh-Harbour-Lantern-78');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expectToast(page, AUTH_COPY.resetDoneReclaimed);
  await expect(page).toHaveURL(/\/login$/);
});

test('a confirmation link that is wrong, or missing, says so and leads to the dashboard', async ({ page, consoleErrors }) => {
  await registerAccount(page.request, 'wrong-link');
  await page.goto('/verify-email?token=00000000-0000-0000-0000-000000000000.9999999999.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
  await expect(page.getByRole('alert')).toHaveText(AUTH_COPY.verifyEmailInvalid);
  await expect(page.getByRole('link', { name: 'Go to your dashboard' })).toHaveAttribute('href', '/dashboard');
  await page.goto('/verify-email');
  await expect(page.getByRole('alert')).toHaveText(AUTH_COPY.verifyEmailMissingToken);
  allowFailedResources(consoleErrors, [400]);
});

test('a confirmation link opened signed out asks to sign in, and the dashboard confirms it then', async ({
  page,
  request,
  consoleErrors,
}) => {
  const account = await registerAccount(request, 'signed-out');
  await request.post('/api/v1/onboarding/complete', { data: { mode: 'hosted' } });
  const link = await readConfirmationLink(request, account.email);
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByRole('status')).toHaveText(AUTH_COPY.verifyEmailSignIn);
  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await waitForHydration(page);
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expectToast(page, AUTH_COPY.verifyEmailDone);
  await expect(page.getByRole('region', { name: 'Confirm your email address' })).toHaveCount(0);
  allowFailedResources(consoleErrors, [401]);
});

test('the dashboard asks an unconfirmed account to confirm, sends a new link, and stops asking once confirmed', async ({
  page,
  request,
}) => {
  const account = await registerAccount(page.request, 'banner');
  await page.request.post('/api/v1/onboarding/complete', { data: { mode: 'hosted' } });
  await page.goto('/dashboard');
  const banner = page.getByRole('region', { name: 'Confirm your email address' });
  await expect(banner).toContainText(account.email);
  await banner.getByRole('button', { name: 'Send a new link' }).click();
  await expectToast(page, AUTH_COPY.verifyEmailSent(account.email));
  const link = await readConfirmationLink(request, account.email);
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByRole('status')).toHaveText(AUTH_COPY.verifyEmailDone);
  await page.getByRole('link', { name: 'Go to your dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(banner).toHaveCount(0);
});
