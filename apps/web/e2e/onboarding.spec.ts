import { MESSAGES } from '@conductor/shared';
import { AZURE_ENDPOINT_NEEDS_KEY, AZURE_ENDPOINT_REFUSED } from '@conductor/shared/schemas/onboarding';
import { expectToast } from './auth-helpers';
import { allowFailedStatuses, horizontalOverflow, registerUser } from './dashboard-helpers';
import { expect, test } from './fixtures';

const VALID = {
  openai: 'sk-proj0123456789abcdefABCDEF',
  anthropic: 'sk-ant-api03_abc-DEF_0123456789',
  google: 'AIzaSyA-0123456789_abcdefghijk',
  azure: '0123456789abcdef0123',
  mistral: 'mistral-0123456789',
  cohere: 'cohere-0123456789',
};
const LABELS = {
  openai: 'OpenAI API Key',
  anthropic: 'Anthropic API Key',
  google: 'Google API Key',
  azure: 'Azure OpenAI API Key',
  mistral: 'Mistral API Key',
  cohere: 'Cohere API Key',
};
const masked = (key: string) => `${key.slice(0, 8)}...${key.slice(-4)}`;

test.describe('onboarding wizard', () => {
  test('a new account is sent to onboarding; Hosted takes two steps, with Back', async ({ page }) => {
    await registerUser(page, 'Ada Lovelace');
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/onboarding$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Ada' })).toBeVisible();
    await expect(page.getByTestId('onboarding-step')).toHaveText('Step 1 of 2');
    await page.getByRole('button', { name: /Hosted Service/ }).click();
    await expect(page.getByTestId('onboarding-step')).toHaveText('Step 2 of 2');
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page.getByTestId('onboarding-step')).toHaveText('Step 1 of 2');
    await page.getByRole('button', { name: /Hosted Service/ }).click();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    await page.getByRole('button', { name: 'Go to Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Ada' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Current Plan' }).locator('..').locator('..')).toContainText('Free');
  });

  test('Bring Your Own Keys takes three steps, checks every key format and shows the keys masked', async ({ page }) => {
    await registerUser(page, 'Alan Turing');
    await page.goto('/onboarding');
    await page.getByRole('button', { name: /Bring Your Own Keys/ }).click();
    await expect(page.getByTestId('onboarding-step')).toHaveText('Step 2 of 3');

    const invalid = {
      openai: 'sk_live_123',
      anthropic: 'sk-antx-123',
      google: 'AIxa123',
      azure: '123456789',
      mistral: 'abc',
      cohere: 'short',
    };
    for (const [provider, value] of Object.entries(invalid))
      await page.getByLabel(LABELS[provider as keyof typeof LABELS], { exact: true }).fill(value);
    await page.getByRole('button', { name: 'Save Keys' }).click();
    for (const message of Object.values(MESSAGES.providerKeys)) await expect(page.getByText(message, { exact: true })).toBeVisible();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    for (const [provider, value] of Object.entries(VALID))
      await page.getByLabel(LABELS[provider as keyof typeof LABELS], { exact: true }).fill(value);
    await page.getByLabel(LABELS.cohere, { exact: true }).fill('');
    for (const message of Object.values(MESSAGES.providerKeys)) await expect(page.getByText(message, { exact: true })).toHaveCount(0);
    await page.getByRole('button', { name: 'Save Keys' }).click();
    await expect(page.getByText(MESSAGES.onboarding.keysSaved)).toBeVisible();
    await expect(page.getByTestId('onboarding-step')).toHaveText('Step 3 of 3');
    await expect(page.getByRole('heading', { level: 2, name: 'Your keys are configured' })).toBeVisible();

    const summary = page.getByRole('list', { name: 'Configured provider keys' });
    for (const provider of ['openai', 'anthropic', 'google', 'azure', 'mistral'] as const)
      await expect(summary).toContainText(masked(VALID[provider]));
    await expect(summary).not.toContainText('Cohere');
    await expect(summary).not.toContainText(VALID.openai);

    await page.getByRole('button', { name: 'Go to Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Current Plan' }).locator('..').locator('..')).toContainText('Bring Your Own Keys');
    await page.goto('/dashboard/settings');
    await expect(page.getByTestId('provider-openai')).toContainText(masked(VALID.openai));
  });

  test('every key is optional: saved with none, the summary says requests fail until one is added', async ({ page }) => {
    await registerUser(page, 'Barbara Liskov');
    await page.goto('/onboarding');
    await page.getByRole('button', { name: /Bring Your Own Keys/ }).click();
    await page.getByRole('button', { name: 'Save Keys' }).click();
    await expect(page.getByTestId('onboarding-step')).toHaveText('Step 3 of 3');
    await expect(page.getByRole('heading', { level: 2, name: 'No provider keys yet' })).toBeFocused();
    await expect(page.getByText('Your keys are configured')).toHaveCount(0);
    await expect(page.getByTestId('summary-no-keys')).toContainText('No provider key saved. API requests fail until you add one');
    await page.getByRole('button', { name: 'Go to Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Current Plan' }).locator('..').locator('..')).toContainText('Bring Your Own Keys');
    await page.goto('/dashboard/settings');
    await expect(page.getByTestId('no-provider-keys')).toContainText('API requests fail until you add one');
  });

  test('an Azure key goes with its resource URL: a URL that is not an Azure resource is refused on the field', async ({
    page,
    consoleErrors,
  }) => {
    await registerUser(page, 'Grace Hopper');
    await page.goto('/onboarding');
    await page.getByRole('button', { name: /Bring Your Own Keys/ }).click();
    const url = page.getByLabel('Azure resource URL', { exact: true });
    await expect(url).toHaveAttribute('placeholder', 'https://your-resource.openai.azure.com');

    // A URL without its key, then one that is not an Azure resource (the server's check).
    await url.fill('https://my-resource.openai.azure.com');
    await page.getByLabel(LABELS.openai, { exact: true }).fill(VALID.openai);
    await page.getByRole('button', { name: 'Save Keys' }).click();
    await expect(url).toHaveAccessibleDescription(AZURE_ENDPOINT_NEEDS_KEY);
    await page.getByLabel(LABELS.azure, { exact: true }).fill(VALID.azure);
    await url.fill('https://evil.example.com');
    await page.getByRole('button', { name: 'Save Keys' }).click();
    await expect(url).toHaveAccessibleDescription(AZURE_ENDPOINT_REFUSED);
    await expect(url).toHaveAttribute('aria-invalid', 'true');
    await expect(url).toBeFocused();
    await expect(page.getByTestId('onboarding-step')).toHaveText('Step 2 of 3');
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    await url.fill('https://my-resource.openai.azure.com/');
    await expect(url).not.toHaveAttribute('aria-invalid');
    await page.getByRole('button', { name: 'Save Keys' }).click();
    await expect(page.getByText(MESSAGES.onboarding.keysSaved)).toBeVisible();
    await expect(page.getByTestId('summary-azure-endpoint')).toHaveText('Resource: my-resource.openai.azure.com');
    await page.getByRole('button', { name: 'Go to Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto('/dashboard/settings');
    const azure = page.getByTestId('provider-azure');
    await expect(azure).toContainText(masked(VALID.azure));
    await expect(azure.getByTestId('provider-endpoint')).toHaveText('Resource: my-resource.openai.azure.com');
    // The refused resource URL answers 400 on purpose.
    allowFailedStatuses(consoleErrors, [400]);
  });

  test('a finished onboarding is not offered again: Back and /onboarding lead to the dashboard', async ({ page }) => {
    await registerUser(page, 'Ada Lovelace');
    await page.goto('/home');
    await page.goto('/onboarding');
    await page.getByRole('button', { name: /Hosted Service/ }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'You are all set' })).toBeFocused();
    await page.getByRole('button', { name: 'Go to Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    // The onboarding page greets with the same words: the overview's own summary shows it is the dashboard.
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Ada' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Summary' })).toBeVisible();

    await page.goBack();
    await expect(page).toHaveURL(/\/home$/);
    await page.goto('/onboarding');
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Ada' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Summary' })).toBeVisible();
  });

  test('a wizard left open after onboarding finished elsewhere shows why keys cannot be saved', async ({ page, consoleErrors }) => {
    await registerUser(page);
    await page.goto('/onboarding');
    await page.getByRole('button', { name: /Bring Your Own Keys/ }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Add your provider keys' })).toBeFocused();
    expect((await page.request.post('/api/v1/onboarding/complete', { data: { mode: 'hosted' } })).status()).toBe(200);
    await page.getByLabel(LABELS.mistral, { exact: true }).fill(VALID.mistral);
    await page.getByRole('button', { name: 'Save Keys' }).click();
    await expectToast(page, /Onboarding is finished: manage your provider keys in Settings/);
    await expect(page.getByText(MESSAGES.onboarding.keysFailed)).toHaveCount(0);
    allowFailedStatuses(consoleErrors, [409]);
  });

  test('keys saved, then Back and Hosted Service: finishing honours Hosted (plan Free, no keys kept)', async ({ page }) => {
    await registerUser(page, 'Alan Turing');
    await page.goto('/onboarding');
    await page.getByRole('button', { name: /Bring Your Own Keys/ }).click();
    await page.getByLabel(LABELS.openai, { exact: true }).fill(VALID.openai);
    await page.getByRole('button', { name: 'Save Keys' }).click();
    await expect(page.getByTestId('onboarding-step')).toHaveText('Step 3 of 3');
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('button', { name: /Hosted Service/ }).click();
    await expect(page.getByTestId('onboarding-step')).toHaveText('Step 2 of 2');
    await expect(page.getByText(/Conductor routes your requests with its own provider keys/)).toContainText('You are on the Free plan');
    await expect(page.getByText(/removes the provider keys you saved/)).toBeVisible();

    await page.getByRole('button', { name: 'Go to Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Current Plan' }).locator('..').locator('..')).toContainText('Free');
    await page.goto('/dashboard/settings');
    await expect(page.getByTestId('provider-openai')).toContainText('Not set');
  });

  test('a failed save shows the spec’s failure toast', async ({ page, consoleErrors }) => {
    await registerUser(page);
    await page.route('**/api/v1/onboarding/provider-keys', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"code":"unavailable","message":"down"}}' }),
    );
    await page.goto('/onboarding');
    await page.getByRole('button', { name: /Bring Your Own Keys/ }).click();
    await page.getByLabel(LABELS.mistral, { exact: true }).fill(VALID.mistral);
    await page.getByRole('button', { name: 'Save Keys' }).click();
    await expect(page.getByText(MESSAGES.onboarding.keysFailed)).toBeVisible();
    await expect(page.getByTestId('onboarding-step')).toHaveText('Step 2 of 3');
    allowFailedStatuses(consoleErrors, [503]);
  });
});
