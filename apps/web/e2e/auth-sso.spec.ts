import { MESSAGES } from '@conductor/shared';
import { AUTH_COPY } from '@conductor/shared/schemas/auth-copy';
import { REAUTHENTICATION_REQUIRED, SIGN_IN_AGAIN_TO_CHANGE_EMAIL } from '@conductor/shared/schemas/settings';
import type { Page } from '@playwright/test';
import { allowFailedResources, expectToast } from './auth-helpers';
import { expect, test, waitForHydration } from './fixtures';

const STORAGE_KEYS = ['oidc_provider', 'oidc_issuer', 'oidc_state', 'oidc_code_verifier', 'oidc_nonce'];

async function openSsoTab(page: Page) {
  await page.goto('/register');
  await waitForHydration(page);
  await page.getByRole('tab', { name: 'SSO/OIDC' }).click();
}

async function storedItems(page: Page) {
  return page.evaluate((keys) => keys.map((key) => window.sessionStorage.getItem(key)), STORAGE_KEYS);
}

test.describe('SSO/OIDC tab', () => {
  test('offers the four providers; unconfigured ones are disabled and say so', async ({ page }) => {
    await openSsoTab(page);
    for (const name of ['Google', 'Microsoft', 'GitHub']) {
      const button = page.getByRole('button', { name: `Continue with ${name}` });
      await expect(button).toBeDisabled();
      await expect(button).toHaveAccessibleDescription(`${name} sign-in is not configured on this server.`);
    }
    await expect(page.getByRole('button', { name: 'Continue with Demo OIDC' })).toBeEnabled();
  });

  test('Demo OIDC end to end: the authorization request, consent, and onboarding', async ({ page }) => {
    await openSsoTab(page);
    const authorization = page.waitForRequest((request) => new URL(request.url()).pathname === '/oidc/auth');
    await page.getByRole('button', { name: 'Continue with Demo OIDC' }).click();
    await expectToast(page, MESSAGES.oidc.redirecting('Demo OIDC'));

    const url = new URL((await authorization).url());
    // The consent page is on our origin, in the same tab: the attempt is readable there.
    await expect(page.getByRole('heading', { name: 'Continue to Conductor?' })).toBeVisible();
    const stored = await storedItems(page);
    expect(stored.every((value) => typeof value === 'string' && value.length > 0)).toBe(true);
    const [provider, issuer, state, verifier, nonce] = stored as string[];
    expect(provider).toBe('demo');
    expect(issuer).toBe(new URL('/oidc', page.url()).toString());
    const origin = new URL(page.url()).origin;
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'conductor-web',
      redirect_uri: `${origin}/auth/callback`,
      scope: 'openid profile email',
      state,
      nonce,
      code_challenge_method: 'S256',
    });
    const challenge = await page.evaluate(async (value) => {
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value)));
      return btoa(String.fromCharCode(...digest))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '');
    }, verifier ?? '');
    expect(url.searchParams.get('code_challenge')).toBe(challenge);

    await expect(page.getByText('A new demo identity')).toBeVisible();
    await page.getByRole('button', { name: 'Continue' }).click();

    await expect(page).toHaveURL(/\/auth\/callback$/);
    for (const line of MESSAGES.oidc.successLines) await expect(page.getByText(line)).toBeVisible();
    await expectToast(page, MESSAGES.oidc.demoSuccess);
    expect(await storedItems(page)).toEqual([null, null, null, null, null]);
    await expect(page).toHaveURL(/\/onboarding$/, { timeout: 15_000 });
    const session = await (await page.request.get('/api/v1/auth/session')).json();
    expect(session.user).toMatchObject({ authMethod: 'oidc', oidcProvider: 'demo', verified: true });
  });

  test('cancelling at the provider shows its error description', async ({ page }) => {
    await openSsoTab(page);
    await page.getByRole('button', { name: 'Continue with Demo OIDC' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(/\/auth\/callback$/);
    await expect(page.getByRole('alert')).toHaveText('The sign-in request was cancelled at the Demo OIDC provider.');
    await expectToast(page, MESSAGES.oidc.failureToast);
    expect(await storedItems(page)).toEqual([null, null, null, null, null]);
    await page.getByRole('button', { name: 'Try Again' }).click();
    await expect(page).toHaveURL(/\/register$/);
  });
});

test.describe('/auth/callback errors, in the spec order of precedence', () => {
  async function visitCallback(page: Page, query: string, storedState = 'stored-state-value') {
    await page.goto('/register');
    await waitForHydration(page);
    await page.evaluate((state) => {
      window.sessionStorage.setItem('oidc_provider', 'demo');
      window.sessionStorage.setItem('oidc_issuer', `${window.location.origin}/oidc`);
      window.sessionStorage.setItem('oidc_state', state);
      window.sessionStorage.setItem('oidc_code_verifier', 'v'.repeat(43));
      window.sessionStorage.setItem('oidc_nonce', 'n'.repeat(43));
    }, storedState);
    await page.goto(`/auth/callback${query}`);
    await waitForHydration(page);
  }

  const cases: [string, string, string][] = [
    ['the provider error description', '?error=access_denied&error_description=The%20user%20declined&code=x&state=y', 'The user declined'],
    ['the provider error without a description', '?error=temporarily_unavailable', 'OIDC error: temporarily_unavailable'],
    ['a missing state', '?code=abc', MESSAGES.oidc.missingParameters],
    ['a missing code', '?state=stored-state-value', MESSAGES.oidc.missingParameters],
    ['a state mismatch', '?code=abc&state=another-state', MESSAGES.oidc.stateMismatch],
  ];
  for (const [label, query, message] of cases) {
    test(label, async ({ page }) => {
      await visitCallback(page, query);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign-in failed');
      await expect(page.getByRole('alert')).toHaveText(message);
      await expectToast(page, MESSAGES.oidc.failureToast);
      expect(await storedItems(page)).toEqual([null, null, null, null, null]);
      await expect(page.getByRole('button', { name: 'Try Again' })).toBeVisible();
    });
  }

  test('a failed exchange shows the server explanation', async ({ page, consoleErrors }) => {
    const state = 's'.repeat(43);
    await visitCallback(page, `?code=forged-code&state=${state}`, state);
    await expect(page.getByRole('alert')).toHaveText(AUTH_COPY.ssoSessionLost);
    await expectToast(page, MESSAGES.oidc.failureToast);
    allowFailedResources(consoleErrors, [400]);
  });
});

test.describe('signing in again to confirm a change (single sign-on accounts have no password)', () => {
  test('an e-mail change refused for an old sign-in offers Sign in again, which comes back to Settings and then saves', async ({
    page,
    consoleErrors,
  }) => {
    // Two single sign-on round trips and a settings save: on a loaded machine, past one test's usual time.
    test.slow();
    await openSsoTab(page);
    await page.getByRole('button', { name: 'Continue with Demo OIDC' }).click();
    await expect(page.getByRole('heading', { name: 'Continue to Conductor?' })).toBeVisible();
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await expect(page).toHaveURL(/\/onboarding$/, { timeout: 15_000 });
    expect((await page.request.post('/api/v1/onboarding/complete', { data: { mode: 'hosted' } })).status()).toBe(200);

    await page.goto('/dashboard/settings');
    const profile = page.getByRole('region', { name: 'Profile' });
    const email = profile.getByLabel('Email', { exact: true });
    const moved = `moved-${Date.now().toString(36)}@example.com`;
    // This session is seconds old, so the server would accept the change: the first answer plays
    // the server's refusal of a sign-in older than the limit (settings tests prove the server side).
    await page.route(
      '**/api/v1/settings/profile',
      (route) =>
        route.fulfill({
          status: 403,
          contentType: 'application/json',
          body: JSON.stringify({
            error: {
              code: REAUTHENTICATION_REQUIRED,
              message: SIGN_IN_AGAIN_TO_CHANGE_EMAIL,
              fields: { email: SIGN_IN_AGAIN_TO_CHANGE_EMAIL },
            },
          }),
        }),
      { times: 1 },
    );
    await email.fill(moved);
    await profile.getByRole('button', { name: 'Save changes' }).click();
    await expect(profile.getByText(SIGN_IN_AGAIN_TO_CHANGE_EMAIL)).toBeVisible();
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    allowFailedResources(consoleErrors, [403]);

    // The issuer remembers this browser's consent: it answers at once, and the callback comes back here.
    await profile.getByRole('button', { name: 'Sign in again with Demo OIDC' }).click();
    await expect(page).toHaveURL(/\/dashboard\/settings#profile$/, { timeout: 15_000 });
    expect(await page.evaluate(() => window.sessionStorage.getItem('oidc_return_to'))).toBeNull();

    await email.fill(moved);
    await profile.getByRole('button', { name: 'Save changes' }).click();
    await expectToast(page, 'Profile saved');
    const session = await (await page.request.get('/api/v1/auth/session')).json();
    expect(session.user).toMatchObject({ email: moved, authMethod: 'oidc', verified: false });
  });
});
