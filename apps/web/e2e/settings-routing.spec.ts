import AxeBuilder from '@axe-core/playwright';
import { horizontalOverflow, registerOnboardedUser } from './dashboard-helpers';
import { expect, test, waitForHydration } from './fixtures';

test('settings: routing default with fallback targets, kept on reload, refused when invalid, cleared', async ({ page }) => {
  await registerOnboardedUser(page, 'Barbara Liskov');
  await page.goto('/dashboard/settings');
  await waitForHydration(page);
  const routing = page.getByRole('region', { name: 'Routing' });
  const current = routing.getByTestId('routing-current');
  await expect(current).toHaveText(/No account default/);
  await expect(routing.getByText('x-conductor-routing')).toBeVisible();
  await expect(routing.getByRole('radio', { name: 'Single model' })).toBeChecked();

  await routing.getByRole('radio', { name: 'Fallback' }).check();
  await routing.getByRole('button', { name: 'Add target' }).click();
  await routing.getByLabel('Provider for target 1').selectOption('openai');
  await routing.getByLabel('Model for target 1').selectOption('gpt-4o');
  await routing.getByRole('button', { name: 'Add target' }).click();
  await routing.getByLabel('Provider for target 2').selectOption('anthropic');
  await expect(routing.getByLabel('Model for target 2').locator('option')).toHaveText([
    'claude-3-5-sonnet',
    'claude-3-5-haiku',
    'claude-3-opus',
  ]);
  await routing.getByLabel('Model for target 2').selectOption('claude-3-5-sonnet');
  // Anthropic first, then OpenAI.
  await routing.getByRole('button', { name: 'Move target 2 up' }).click();
  await routing.getByRole('button', { name: 'Save routing' }).click();
  await expect(page.getByText('Routing default saved')).toBeVisible();
  await expect(current).toHaveText('Account default: Fallback, 2 targets.');

  await page.reload();
  await waitForHydration(page);
  await expect(current).toHaveText('Account default: Fallback, 2 targets.');
  await expect(routing.getByRole('radio', { name: 'Fallback' })).toBeChecked();
  await expect(routing.getByLabel('Provider for target 1')).toHaveValue('anthropic');
  await expect(routing.getByLabel('Model for target 1')).toHaveValue('claude-3-5-sonnet');
  await expect(routing.getByLabel('Provider for target 2')).toHaveValue('openai');
  await expect(routing.getByLabel('Model for target 2')).toHaveValue('gpt-4o');
  const saved = await page.request.get('/api/v1/settings/routing');
  expect(await saved.json()).toEqual({
    policy: {
      strategy: 'fallback',
      targets: [
        { provider: 'anthropic', model: 'claude-3-5-sonnet' },
        { provider: 'openai', model: 'gpt-4o' },
      ],
    },
  });

  // The same model twice is refused, and so is Fallback with one target; the API applies the same rules.
  await routing.getByLabel('Provider for target 2').selectOption('anthropic');
  await routing.getByLabel('Model for target 2').selectOption('claude-3-5-sonnet');
  await routing.getByRole('button', { name: 'Save routing' }).click();
  await expect(routing.getByRole('alert')).toHaveText('Target 2 (anthropic/claude-3-5-sonnet) repeats target 1: list each model once.');
  await expect(routing.getByLabel('Model for target 2')).toHaveAttribute('aria-invalid', 'true');
  await routing.getByRole('button', { name: 'Remove target 2' }).click();
  await routing.getByRole('button', { name: 'Save routing' }).click();
  await expect(routing.getByRole('alert')).toContainText('Fallback needs at least two targets');
  const refused = await page.request.put('/api/v1/settings/routing', {
    data: {
      policy: {
        strategy: 'fallback',
        targets: [
          { provider: 'openai', model: 'claude-3-opus' },
          { provider: 'openai', model: 'gpt-4o' },
        ],
      },
    },
  });
  expect(refused.status()).toBe(400);
  expect((await refused.json()).error.message).toContain('Target 1 (openai/claude-3-opus) is not a model served by OpenAI.');

  // Load balance shows a weight per target.
  await routing.getByRole('radio', { name: 'Load balance' }).check();
  await expect(routing.getByLabel('Weight for target 1')).toBeVisible();
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  const axe = await new AxeBuilder({ page }).include('section[aria-labelledby="routing"]').exclude('[data-sonner-toaster]').analyze();
  expect(axe.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([]);

  await routing.getByRole('button', { name: 'Clear default' }).click();
  await expect(page.getByText('Routing default cleared')).toBeVisible();
  await expect(current).toHaveText(/No account default/);
  await expect(routing.getByRole('radio', { name: 'Single model' })).toBeChecked();
  await page.reload();
  await expect(current).toHaveText(/No account default/);
  expect(await (await page.request.get('/api/v1/settings/routing')).json()).toEqual({ policy: null });
});
