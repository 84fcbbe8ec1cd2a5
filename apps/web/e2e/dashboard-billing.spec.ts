import { readFileSync } from 'node:fs';
import { horizontalOverflow, registerOnboardedUser } from './dashboard-helpers';
import { expect, test } from './fixtures';
import { allowFailedResources } from './public-helpers';

test('billing: upgrade with proration shown first, invoice download, cancel and resume', async ({ page }) => {
  await registerOnboardedUser(page, 'Barbara Liskov');
  await page.goto('/dashboard/billing');
  await expect(page.getByTestId('current-plan')).toHaveText('Free');
  await expect(page.getByTestId('overage')).toHaveText('$0.00');

  await page.getByRole('button', { name: 'Change plan' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/^Pro/).check();
  await dialog.getByRole('button', { name: 'Review change' }).click();
  const preview = dialog.getByTestId('proration-preview');
  await expect(preview).toContainText('Due now (prorated)');
  await expect(preview).toContainText('Pro plan (monthly)');
  const due = Number((await preview.locator('div').first().locator('span').last().textContent())?.replace(/[^\d.]/g, ''));
  expect(due).toBeGreaterThan(0);
  expect(due).toBeLessThanOrEqual(29);
  expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  await dialog.getByRole('button', { name: 'Confirm change' }).click();

  await expect(page.getByTestId('current-plan')).toHaveText('Pro');
  await expect(page.getByTestId('plan-price')).toHaveText('$29.00/month');
  await expect(page.getByTestId('estimated-bill')).toHaveText('$29.00');
  const invoice = page.getByTestId('invoice-row').first();
  await expect(invoice).toContainText(`$${due.toFixed(2)}`);
  await expect(invoice).toContainText('Open');

  const [download] = await Promise.all([page.waitForEvent('download'), invoice.getByRole('link', { name: /Download invoice/ }).click()]);
  expect(download.suggestedFilename()).toMatch(/^conductor-INV-\d{6}-[0-9A-F]{8}\.html$/);
  const html = readFileSync(await download.path(), 'utf8');
  expect(html).toContain('Barbara Liskov');
  expect(html).toContain(`$${due.toFixed(2)}`);

  await page.getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('then move to the Free plan');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(page.getByText(/^Cancels /)).toBeVisible();
  await expect(page.getByTestId('estimated-bill')).toHaveText('$0.00');
  await page.getByRole('button', { name: 'Resume subscription' }).click();
  await expect(page.getByText(/^Cancels /)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Cancel subscription' })).toBeVisible();
  await expect(page.getByTestId('estimated-bill')).toHaveText('$29.00');

  await page.goto('/dashboard');
  await expect(page.getByRole('region', { name: 'Summary' })).toContainText('Current PlanPro');
  await expect(page.getByRole('region', { name: 'Summary' })).toContainText('of 1,000,000 this month');
});

test('billing: a preview too old to honour is worked out again, and the new amount is the one charged', async ({ page, consoleErrors }) => {
  await registerOnboardedUser(page, 'Frances Allen');
  await page.goto('/dashboard/billing');
  await page.getByRole('button', { name: 'Change plan' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/^Pro/).check();
  await dialog.getByRole('button', { name: 'Review change' }).click();
  await expect(dialog.getByTestId('proration-preview')).toContainText('Due now (prorated)');

  // The dialog was left open past the quote's 10 minutes: the confirmation carries an expired quote.
  let stale = true;
  await page.route('**/api/v1/billing/change-plan', async (route) => {
    if (!stale) return route.continue();
    stale = false;
    const body = route.request().postDataJSON();
    await route.continue({ postData: JSON.stringify({ ...body, prorationDate: new Date(Date.now() - 11 * 60_000).toISOString() }) });
  });
  await dialog.getByRole('button', { name: 'Confirm change' }).click();
  await expect(dialog.getByTestId('requoted')).toHaveText(
    'Those amounts were out of date, so they have been worked out again. Check them and confirm.',
  );
  allowFailedResources(consoleErrors, [409]); // the refused confirmation, logged by Chromium
  const preview = dialog.getByTestId('proration-preview');
  await expect(preview).toContainText('Due now (prorated)');
  const due = Number((await preview.locator('div').first().locator('span').last().textContent())?.replace(/[^\d.]/g, ''));
  await expect(page.getByTestId('current-plan')).toHaveText('Free');

  await dialog.getByRole('button', { name: 'Confirm change' }).click();
  await expect(page.getByTestId('current-plan')).toHaveText('Pro');
  await expect(page.getByTestId('invoice-row').first()).toContainText(`$${due.toFixed(2)}`);
});
