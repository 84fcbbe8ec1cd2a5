import { horizontalOverflow, registerOnboardedUser } from './dashboard-helpers';
import { expect, test } from './fixtures';

test('settings: profile save, e-mail and password changes with the current one checked, provider key', async ({ page, consoleErrors }) => {
  // A dozen saves and removals, each answered by the server: on a loaded machine, past one test's usual time.
  test.slow();
  const account = await registerOnboardedUser(page, 'Frances Allen');
  await page.goto('/dashboard/settings');
  await page.getByLabel('Name', { exact: true }).fill('Frances E. Allen');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Frances E. Allen');
  await expect(page.getByRole('button', { name: 'User menu' })).toContainText('Frances E. Allen');

  // A new e-mail needs the current password: a signed-in session alone cannot move the account.
  const profile = page.getByRole('region', { name: 'Profile' });
  const newEmail = account.email.replace('@', '.moved@');
  await expect(profile.getByLabel('Current password')).toHaveCount(0);
  await profile.getByLabel('Email', { exact: true }).fill(newEmail);
  await profile.getByRole('button', { name: 'Save changes' }).click();
  await expect(profile.getByText('Enter your current password to change your email')).toBeVisible();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await profile.getByLabel('Current password').fill('Wrong-Passw0rd-00');
  await profile.getByRole('button', { name: 'Save changes' }).click();
  await expect(profile.getByText('Current password is incorrect')).toBeVisible();
  await profile.getByLabel('Current password').fill(account.password);
  await profile.getByRole('button', { name: 'Save changes' }).click();
  await expect(profile.getByLabel('Current password')).toHaveCount(0);
  await page.reload();
  await expect(profile.getByLabel('Email', { exact: true })).toHaveValue(newEmail);

  await page.getByLabel('Current password').fill('Wrong-Passw0rd-00');
  await page.getByLabel('New password', { exact: true }).fill('Even-Sturdier-Passw0rd-7');
  await page.getByLabel('Confirm new password').fill('Even-Sturdier-Passw0rd-7');
  await page.getByRole('button', { name: 'Update password' }).click();
  await expect(page.getByText('Current password is incorrect')).toBeVisible();
  await page.getByLabel('Confirm new password').fill('Something-Else-1');
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel('Current password').fill(account.password);
  await page.getByLabel('Confirm new password').fill('Even-Sturdier-Passw0rd-7');
  await page.getByRole('button', { name: 'Update password' }).click();
  await expect(page.getByText('Password updated. Other sessions were signed out.')).toBeVisible();
  const relogin = await page.request.post('/api/v1/auth/login', {
    data: { email: newEmail, password: 'Even-Sturdier-Passw0rd-7', remember: false },
  });
  expect(relogin.status()).toBe(200);

  await page.reload();
  const openai = page.getByTestId('provider-openai');
  await openai.getByRole('button', { name: 'Add' }).click();
  await openai.getByLabel('OpenAI API key').fill('not-a-key');
  await openai.getByRole('button', { name: 'Save' }).click();
  await expect(openai).toContainText('Invalid OpenAI API key format');
  await openai.getByLabel('OpenAI API key').fill('sk-abcdefghijklmnop1234');
  await openai.getByRole('button', { name: 'Save' }).click();
  await expect(openai).toContainText('sk-abcde...1234');
  // Removing asks first: Keep key changes nothing, Remove key removes it.
  await openai.getByRole('button', { name: 'Remove' }).click();
  const confirm = openai.getByRole('group', { name: 'Remove the OpenAI key?' });
  await expect(confirm).toContainText("Requests to OpenAI models then use Conductor's OpenAI key");
  await expect(confirm.getByRole('button', { name: 'Keep key' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Keep key' }).click();
  await expect(openai).toContainText('sk-abcde...1234');
  await expect(openai.getByRole('button', { name: 'Remove' })).toBeFocused();
  await openai.getByRole('button', { name: 'Remove' }).click();
  await openai.getByRole('button', { name: 'Remove key' }).click();
  await expect(openai).toContainText('Not set');
  await expect(openai.getByRole('button', { name: 'Add' })).toBeFocused();

  // An Azure OpenAI key comes with the resource it belongs to.
  const azure = page.getByTestId('provider-azure');
  await azure.getByRole('button', { name: 'Add' }).click();
  await azure.getByLabel('Azure OpenAI API key').fill('0123456789abcdef0123456789abcdef');
  await azure.getByLabel('Azure OpenAI resource URL').fill('https://evil.example.com');
  await azure.getByRole('button', { name: 'Save' }).click();
  await expect(azure.getByRole('alert')).toContainText('Enter your Azure OpenAI resource URL');
  await azure.getByLabel('Azure OpenAI resource URL').fill('https://my-resource.openai.azure.com');
  await azure.getByRole('button', { name: 'Save' }).click();
  await expect(azure.getByTestId('provider-endpoint')).toHaveText('Resource: my-resource.openai.azure.com');
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  // The refused e-mail change and the failed password attempts answer 400 on purpose.
  const kept = consoleErrors.filter((message) => !/status of 400\b/.test(message));
  consoleErrors.splice(0, consoleErrors.length, ...kept);
});

test('settings: sessions list and account deletion with typed confirmation and the password', async ({ page, browser, consoleErrors }) => {
  const account = await registerOnboardedUser(page, 'Radia Perlman');
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  expect(
    (await otherPage.request.post('/api/v1/auth/login', { data: { email: account.email, password: account.password } })).status(),
  ).toBe(200);

  await page.goto('/dashboard/settings');
  const sessions = page.getByTestId('session-row');
  await expect(sessions).toHaveCount(2);
  await sessions.filter({ hasNotText: 'This device' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(sessions).toHaveCount(1);
  expect((await otherPage.request.get('/api/v1/settings/sessions')).status()).toBe(401);
  await other.close();

  await page.getByRole('button', { name: 'Delete Account' }).click();
  const dialog = page.getByRole('alertdialog');
  const confirm = dialog.getByRole('button', { name: 'Delete account' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/Type DELETE to confirm/).fill('delete');
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(/Type DELETE to confirm/).fill('DELETE');
  // The account signs in with a password: it is asked for too, and a wrong one is refused where it was typed.
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Current password').fill('Not-The-Passw0rd');
  await confirm.click();
  await expect(dialog.getByRole('alert')).toHaveText('Current password is incorrect');
  await expect(dialog.getByLabel('Current password')).toBeFocused();
  await dialog.getByLabel('Current password').fill(account.password);
  await confirm.click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('Your account has been deleted')).toBeVisible();
  const login = await page.request.post('/api/v1/auth/login', { data: { email: account.email, password: account.password } });
  expect(login.status()).toBe(401);
  // The wrong password's 400 is on purpose.
  const kept = consoleErrors.filter((message) => !/status of 400\b/.test(message));
  consoleErrors.splice(0, consoleErrors.length, ...kept);
});
