import { DEMO_CREDENTIALS } from '@conductor/shared';
import { DEMO_ACCOUNT_REFUSALS, DEMO_KEYS_NOTE, DEMO_SESSIONS_NOTE, DEMO_TICKETS_NOTE } from '@conductor/shared/constants/demo-account';
import { horizontalOverflow, signInAsDemo } from './dashboard-helpers';
import { expect, test } from './fixtures';

/**
 * The demo account is shared by every visitor (its credentials are on the login page). What the
 * server refuses on it is not offered, and the page says why. Nothing here changes the account:
 * other specs sign in to it at the same time.
 */
test('demo account: settings say what it cannot change, and the server refuses it anyway', async ({ page }) => {
  await signInAsDemo(page);
  await page.goto('/dashboard/settings');

  const profile = page.getByRole('region', { name: 'Profile' });
  const email = profile.getByLabel('Email', { exact: true });
  await expect(email).toHaveValue(DEMO_CREDENTIALS.email);
  await expect(email).toHaveAttribute('readonly', '');
  await expect(profile).toContainText(DEMO_ACCOUNT_REFUSALS.email);

  const password = page.getByRole('region', { name: 'Change password' });
  await expect(password).toContainText(DEMO_ACCOUNT_REFUSALS.password);
  await expect(password.getByRole('button', { name: 'Update password' })).toHaveCount(0);

  const providerKeys = page.getByRole('region', { name: 'Provider keys' });
  await expect(providerKeys.getByTestId('demo-provider-keys')).toHaveText(DEMO_ACCOUNT_REFUSALS.providerKeys);
  await expect(providerKeys.getByRole('button', { name: /^(Add|Replace|Remove)$/ })).toHaveCount(0);

  const sessions = page.getByRole('region', { name: 'Active sessions' });
  await expect(sessions.getByTestId('session-row')).toHaveCount(1);
  await expect(sessions.getByTestId('session-row')).toContainText('This device');
  await expect(sessions).toContainText(DEMO_SESSIONS_NOTE);

  const deleteAccount = page.getByRole('button', { name: 'Delete Account' });
  await expect(deleteAccount).toBeDisabled();
  await expect(deleteAccount).toHaveAccessibleDescription(DEMO_ACCOUNT_REFUSALS.deleteAccount);
  await expect(page.getByRole('button', { name: 'Sign Out' })).toBeEnabled();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

  // The same session, straight at the API: 403 with the message the page shows.
  const refused = await page.request.post('/api/v1/settings/password', {
    data: { currentPassword: DEMO_CREDENTIALS.password, newPassword: 'Hijacked-Passw0rd-1', confirmPassword: 'Hijacked-Passw0rd-1' },
  });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.message).toBe(DEMO_ACCOUNT_REFUSALS.password);
});

test('demo account: a new key can only be a test key, and the dialog says why', async ({ page }) => {
  await signInAsDemo(page);
  await page.goto('/dashboard/keys');
  await page.getByRole('button', { name: 'Create API Key' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByLabel(/^Live/)).toBeDisabled();
  await expect(dialog.getByLabel(/^Test/)).toBeChecked();
  await expect(dialog).toContainText(DEMO_ACCOUNT_REFUSALS.liveApiKey);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);

  const refused = await page.request.post('/api/v1/api-keys', { data: { name: 'Live', environment: 'live', permissions: ['api'] } });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.message).toBe(DEMO_ACCOUNT_REFUSALS.liveApiKey);
});

test('demo account: billing shows the plan without offering to change it; support lists no tickets', async ({ page }) => {
  await signInAsDemo(page);
  await page.goto('/dashboard/billing');
  await expect(page.getByTestId('current-plan')).toHaveText('Pro');
  await expect(page.getByTestId('demo-billing-note')).toHaveText(DEMO_ACCOUNT_REFUSALS.billing);
  await expect(page.getByRole('button', { name: 'Change plan' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Cancel subscription' })).toHaveCount(0);
  const refused = await page.request.post('/api/v1/billing/cancel');
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.message).toBe(DEMO_ACCOUNT_REFUSALS.billing);

  await page.goto('/support');
  await expect(page.getByRole('region', { name: 'Your tickets' })).toContainText(DEMO_TICKETS_NOTE);
});

test('demo account: each visitor manages the keys of their own session; sample keys are locked; signing out revokes them', async ({
  page,
  browser,
}) => {
  await signInAsDemo(page);
  await page.goto('/dashboard/keys');
  await expect(page.getByTestId('demo-keys-note')).toHaveText(DEMO_KEYS_NOTE);
  const rows = page.getByTestId('api-key-row');
  for (const name of ['Production', 'Staging']) {
    const sample = rows.filter({ hasText: name }).filter({ hasText: 'sample' });
    await expect(sample).toHaveCount(1);
    await expect(sample.getByRole('button', { name: `Edit ${name}` })).toBeDisabled();
    await expect(sample.getByRole('button', { name: `Revoke ${name}` })).toBeDisabled();
    await expect(sample.getByRole('button', { name: `Revoke ${name}` })).toHaveAccessibleDescription(DEMO_ACCOUNT_REFUSALS.sampleKey);
  }

  // A key of this visitor's own: listed, renamed, answered by the sandbox.
  const name = `Visitor ${Date.now().toString(36)}`;
  await page.getByRole('button', { name: 'Create API Key' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Key name').fill(name);
  await dialog.getByRole('button', { name: 'Create key' }).click();
  const key = (await dialog.getByTestId('new-api-key').textContent()) ?? '';
  expect(key).toMatch(/^cc_test_sk_/);
  await dialog.getByRole('button', { name: 'Done' }).click();
  const own = rows.filter({ hasText: name });
  await expect(own).toContainText('active');
  await own.getByRole('button', { name: `Edit ${name}` }).click();
  await page.getByRole('dialog').getByLabel('Key name').fill(`${name} renamed`);
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  await expect(rows.filter({ hasText: `${name} renamed` })).toBeVisible();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

  // Another visitor (another browser) sees the samples, not this key.
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await signInAsDemo(other);
  await other.goto('/dashboard/keys');
  await expect(other.getByTestId('api-key-row').filter({ hasText: 'Production' })).toBeVisible();
  await expect(other.getByTestId('api-key-row').filter({ hasText: name })).toHaveCount(0);
  await otherContext.close();

  const call = () =>
    page.request.post('/v1/chat/completions', {
      headers: { authorization: `Bearer ${key}` },
      data: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello from a demo visitor' }] },
    });
  expect((await call()).status()).toBe(200);
  await page.goto('/dashboard/settings');
  const signedOut = page.waitForResponse((response) => response.url().endsWith('/api/v1/auth/logout'));
  await page.getByRole('button', { name: 'Sign Out' }).click();
  expect((await signedOut).status()).toBe(200);
  expect((await call()).status()).toBe(401);
});

test('demo account: the name and the routing default are shown, not editable, with the reasons', async ({ page }) => {
  await signInAsDemo(page);
  await page.goto('/dashboard/settings');
  const profile = page.getByRole('region', { name: 'Profile' });
  const name = profile.getByLabel('Name', { exact: true });
  await expect(name).toHaveValue(DEMO_CREDENTIALS.name);
  await expect(name).toHaveAttribute('readonly', '');
  await expect(name).toHaveAccessibleDescription(DEMO_ACCOUNT_REFUSALS.name);
  await expect(profile.getByRole('button', { name: 'Save changes' })).toBeDisabled();

  const routing = page.getByRole('region', { name: 'Routing' });
  await expect(routing.getByTestId('demo-routing')).toHaveText(DEMO_ACCOUNT_REFUSALS.routing);
  await expect(routing.getByRole('radio').first()).toBeDisabled();
  await expect(routing.getByRole('button', { name: 'Save routing' })).toBeDisabled();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

  const refused = await page.request.put('/api/v1/settings/routing', { data: { policy: { strategy: 'cost' } } });
  expect(refused.status()).toBe(403);
  expect((await refused.json()).error.message).toBe(DEMO_ACCOUNT_REFUSALS.routing);
});
