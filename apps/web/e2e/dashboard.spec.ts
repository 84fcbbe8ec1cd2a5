import { readFileSync } from 'node:fs';
import { horizontalOverflow, registerOnboardedUser, signInAsDemo } from './dashboard-helpers';
import { expect, test } from './fixtures';

const number = (text: string | null) => Number((text ?? '').replace(/[^\d]/g, ''));

test.describe('dashboard', () => {
  test('a new account sees zero usage and empty states on every page', async ({ page }) => {
    await registerOnboardedUser(page, 'Katherine Johnson');
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Katherine' })).toBeVisible();
    const summary = page.getByRole('region', { name: 'Summary' });
    await expect(summary).toContainText('Tokens Used0of 10,000 this month');
    await expect(summary).toContainText('Requests Today0Limit: 10 requests/min');
    await expect(summary).toContainText('Current PlanFree');
    await expect(summary).toContainText('This Month$0.00');
    await expect(page.getByTestId('range-summary')).toHaveText('0 requests · 0 tokens');
    await expect(page.getByText('No requests yet. Make your first one.')).toBeVisible();
    await expect(page.getByTestId('first-request-snippet')).toContainText('/v1/chat/completions');
    // The copy button sits above the code, never over a line of it (the lines scroll in a narrow card).
    const snippetBox = await page.getByTestId('first-request-snippet').boundingBox();
    const copyBox = await page.getByRole('button', { name: 'Copy snippet' }).boundingBox();
    expect(snippetBox && copyBox && copyBox.y + copyBox.height <= snippetBox.y).toBe(true);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    await page.goto('/dashboard/usage');
    await expect(page.getByText('No requests in the last 7 days')).toBeVisible();
    await expect(page.getByRole('progressbar', { name: 'Token usage this month' })).toHaveAttribute('data-tone', 'success');
    await expect(page.getByText('0 / 10,000 tokens (0.0%)')).toBeVisible();
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);

    await page.goto('/dashboard/keys');
    await expect(page.getByText('No API keys yet')).toBeVisible();

    await page.goto('/dashboard/billing');
    await expect(page.getByTestId('current-plan')).toHaveText('Free');
    await expect(page.getByText('No invoices yet')).toBeVisible();
    await expect(page.getByText('No card on file')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cancel subscription' })).toHaveCount(0);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  });

  test('the demo account shows its history, and every range changes the numbers', async ({ page }) => {
    await signInAsDemo(page);
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome back, Demo' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Summary' })).toContainText('Current PlanPro');
    await expect(page.getByRole('region', { name: 'Summary' })).toContainText('Limit: 100 requests/min');
    await expect(page.getByTestId('activity-item')).toHaveCount(5);
    // The chart library loads when the chart comes on screen (below the fold on a phone).
    await page.getByTestId('range-summary').scrollIntoViewIfNeeded();
    await expect(page.locator('.recharts-surface').first()).toBeVisible();

    const rangeSummary = page.getByTestId('range-summary');
    const requestsFor = async (label: string) => {
      const before = await rangeSummary.textContent();
      await page.getByRole('combobox', { name: 'Time range' }).selectOption({ label });
      if (label !== '7 days') await expect(rangeSummary).not.toHaveText(before ?? '');
      return number((await rangeSummary.textContent())?.split('requests')[0] ?? '');
    };
    const week = await requestsFor('7 days');
    const month = await requestsFor('30 days');
    const quarter = await requestsFor('3 months');
    expect(week).toBeGreaterThan(0);
    expect(month).toBeGreaterThan(week);
    expect(quarter).toBeGreaterThan(month);

    await page.goto('/dashboard/usage');
    const requests = page.getByRole('heading', { name: 'Requests', exact: true }).first().locator('..').locator('..');
    const table = page.getByRole('table', { name: 'Usage by model' });
    const counts: Record<string, number> = {};
    for (const range of ['24h', '7d', '30d', '90d']) {
      await page.getByRole('combobox', { name: 'Time range' }).selectOption(range);
      await expect(page.getByText(`Over the last ${range === '24h' ? '24 hours' : `${range.replace('d', '')} days`}`)).toBeVisible();
      await expect(table.getByRole('row')).not.toHaveCount(1);
      counts[range] = number(await requests.locator('p').first().textContent());
    }
    expect(counts['90d']).toBeGreaterThan(counts['30d'] ?? 0);
    expect(counts['30d']).toBeGreaterThan(counts['7d'] ?? 0);
    expect(counts['7d']).toBeGreaterThanOrEqual(counts['24h'] ?? 0);
    await expect(table).toContainText('gpt-4o-mini');
    // Every column on screen, phone included: the table needs no sideways scroll in its box.
    const tableBox = await table.boundingBox();
    expect(tableBox, 'laid out').not.toBeNull();
    expect((tableBox?.x ?? 0) + (tableBox?.width ?? 0)).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
    await expect(page.getByRole('progressbar', { name: 'Token usage this month' })).toBeVisible();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^conductor-usage-90d-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8').split('\r\n');
    expect(csv[0]).toBe('period_start,model,provider,requests,errors,prompt_tokens,completion_tokens,total_tokens,cost_usd,avg_latency_ms');
    expect(csv.length).toBeGreaterThan(50);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  });

  test('a test key is shown once, calls the API, shows up in activity and usage, and can be renamed and revoked', async ({ page }) => {
    await registerOnboardedUser(page, 'Margaret Hamilton');
    await page.goto('/dashboard/keys');
    // From the empty list's button: the list that replaces it once the key exists must not take the reveal with it.
    await page.getByRole('button', { name: 'Create your first key' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Key name').fill('E2E key');
    await dialog.getByLabel(/^Test/).check();
    await expect(dialog.getByLabel('API Access')).toBeChecked();
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect(dialog.getByRole('heading', { name: 'Your new API key' })).toBeVisible();
    await expect(page.getByTestId('api-key-row')).toHaveCount(1); // the list has refreshed behind the dialog
    const key = (await dialog.getByTestId('new-api-key').textContent()) ?? '';
    expect(key).toMatch(/^cc_test_sk_[A-Za-z0-9_-]{43}$/);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();

    const row = page.getByTestId('api-key-row').filter({ hasText: 'E2E key' });
    await expect(row).toContainText(`${key.slice(0, 16)}...${key.slice(-4)}`);
    await expect(row).toContainText('active');
    await expect(row).toContainText('Never');
    await expect(page.getByText(key)).toHaveCount(0);

    const call = () =>
      page.request.post('/v1/chat/completions', {
        headers: { authorization: `Bearer ${key}` },
        data: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello from the browser test' }] },
      });
    const answer = await call();
    expect(answer.status()).toBe(200);
    expect((await answer.json()).choices[0].message.content).toBeTruthy();

    await page.goto('/dashboard');
    const activity = page.getByRole('list', { name: 'Recent activity' });
    // The request is in the activity, and its tokens are named beside the quota's 0, not counted in it.
    const summary = page.getByRole('region', { name: 'Summary' });
    await expect(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect(activity).toContainText('E2E key', { timeout: 1_000 });
      await expect(summary).toContainText(/Tokens Used0of 10,000 this month; [1-9][\d,]* on test keys, not counted/, { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expect(page.getByTestId('activity-item').first()).toContainText('success');
    await page.goto('/dashboard/usage');
    await expect(page.getByRole('table', { name: 'Usage by model' })).toContainText('gpt-4o-mini');
    await expect(page.getByText(/^[1-9][\d,]* tokens on test keys this month, not counted/)).toBeVisible();

    await page.goto('/dashboard/keys');
    await row.getByRole('button', { name: 'Edit E2E key' }).click();
    await page.getByRole('dialog').getByLabel('Key name').fill('Renamed key');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    const renamed = page.getByTestId('api-key-row').filter({ hasText: 'Renamed key' });
    await expect(renamed).toBeVisible();
    await expect(renamed).toContainText(/ago|just now/);

    await renamed.getByRole('button', { name: 'Revoke Renamed key' }).click();
    await expect(page.getByRole('alertdialog')).toContainText('Requests using');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
    await expect(renamed).toContainText('revoked');
    const refused = await call();
    expect(refused.status()).toBe(401);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  });

  test('the narrow-screen navigation dims the page and closes on Escape, a press outside or a link', async ({ page, viewport }) => {
    await registerOnboardedUser(page, 'Dorothy Vaughan');
    await page.goto('/dashboard');
    const toggle = page.getByRole('button', { name: 'Open navigation' });
    const nav = page.locator('#dashboard-nav');
    if ((viewport?.width ?? 1280) >= 1024) {
      // Wide screens keep the sidebar and have no toggle.
      await expect(toggle).toBeHidden();
      await expect(nav.getByRole('link', { name: 'Usage' })).toBeVisible();
      return;
    }
    await expect(nav).toBeHidden();
    await toggle.click();
    await expect(nav).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(nav).toBeHidden();
    await expect(toggle).toBeFocused();

    await toggle.click();
    await expect(nav).toBeVisible();
    const { height } = page.viewportSize() ?? { height: 700 };
    await page.mouse.click(20, height - 20); // on the dimmed page below the menu
    await expect(nav).toBeHidden();

    await toggle.click();
    await nav.getByRole('link', { name: 'Usage' }).click();
    await expect(page).toHaveURL(/\/dashboard\/usage$/);
    await expect(nav).toBeHidden();
  });
});
