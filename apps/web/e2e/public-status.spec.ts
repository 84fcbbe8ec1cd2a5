import type { StatusResponse } from '@conductor/shared/schemas/status';
import { expect, test, waitForHydration } from './fixtures';
import { allowFailedResources } from './public-helpers';

test.describe('status page', () => {
  test('shows the live state of the platform components with 90 days of bars', async ({ page }) => {
    const live = page.waitForResponse('**/v1/status');
    await page.goto('/status');
    expect((await live).status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('System Status');
    await expect(page.getByText('All systems operational')).toBeVisible();
    for (const [id, name] of [
      ['api', 'API'],
      ['gateway', 'Gateway'],
      ['database', 'Database'],
    ]) {
      const row = page.locator(`[data-component="${id}"]`);
      await expect(row.getByRole('heading', { name })).toBeVisible();
      await expect(row).toHaveAttribute('data-status', 'operational');
      await expect(row.getByText('Operational', { exact: true })).toBeVisible();
      await expect(row.locator('[data-day-status]')).toHaveCount(90);
      await expect(row.getByRole('img', { name: new RegExp(`^${name}, last 90 days`) })).toBeVisible();
    }
  });

  test('shows a degraded provider in yellow and an outage in red, with the day bars in their colours', async ({ page, request }) => {
    // Start from the server's real answer and degrade it: a configured provider failing, one day of outage.
    const real = (await (await request.get('/v1/status')).json()) as StatusResponse;
    const history = real.components[0]!.history.map((day, index) => ({
      ...day,
      status: index === 88 ? ('outage' as const) : index === 89 ? ('degraded' as const) : ('operational' as const),
      uptimePercent: index === 88 ? 97.5 : 100,
      checks: 1440,
    }));
    const degraded: StatusResponse = {
      ...real,
      status: 'degraded',
      components: [
        ...real.components.map((component) =>
          component.id === 'gateway' ? { ...component, status: 'degraded' as const, history } : { ...component, history },
        ),
        {
          id: 'provider:openai',
          name: 'OpenAI',
          description: 'Upstream model provider (hosted key)',
          group: 'provider',
          status: 'degraded',
          latencyMs: 3200,
          uptimePercent: 99.97,
          history,
        },
        {
          id: 'provider:cohere',
          name: 'Cohere',
          description: 'Upstream model provider (hosted key)',
          group: 'provider',
          status: 'outage',
          latencyMs: null,
          uptimePercent: 98.1,
          history,
        },
      ],
    };
    await page.route('**/v1/status', (route) => route.fulfill({ json: degraded }));
    await page.goto('/status');
    await waitForHydration(page);
    await expect(page.getByText('Some systems are degraded')).toBeVisible();
    const openai = page.locator('[data-component="provider:openai"]');
    await expect(openai).toHaveAttribute('data-status', 'degraded');
    await expect(openai.getByText('Degraded', { exact: true })).toHaveClass(/text-warning/);
    const cohere = page.locator('[data-component="provider:cohere"]');
    await expect(cohere.getByText('Outage', { exact: true })).toHaveClass(/text-danger/);
    await expect(page.getByRole('heading', { name: 'Model providers' })).toBeVisible();
    await expect(page.locator('[data-component="gateway"]').getByText('Degraded', { exact: true })).toBeVisible();

    const colour = (status: string) =>
      openai
        .locator(`[data-day-status="${status}"]`)
        .first()
        .evaluate((element) => getComputedStyle(element).backgroundColor);
    const [operational, warning, outage] = [await colour('operational'), await colour('degraded'), await colour('outage')];
    expect(new Set([operational, warning, outage]).size).toBe(3);
    await expect(openai.getByRole('img', { name: /99\.97% uptime over 90 days, 2 days with problems/ })).toBeVisible();
  });

  test('explains a failed load and retries on request', async ({ page, consoleErrors }) => {
    let fail = true;
    await page.route('**/v1/status', (route) =>
      fail ? route.fulfill({ status: 503, json: { error: { message: 'unavailable' } } }) : route.fallback(),
    );
    await page.goto('/status');
    await expect(page.getByText('We could not load the live status.')).toBeVisible({ timeout: 15_000 });
    fail = false;
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByText('All systems operational')).toBeVisible();
    allowFailedResources(consoleErrors, [503]);
  });

  test('stops calling stale data current when the refreshes keep failing', async ({ page, consoleErrors }) => {
    await page.clock.install();
    let fail = false;
    await page.route('**/v1/status', (route) =>
      fail ? route.fulfill({ status: 503, json: { error: { message: 'unavailable' } } }) : route.fallback(),
    );
    await page.goto('/status');
    await waitForHydration(page);
    await expect(page.getByText('All systems operational', { exact: true })).toBeVisible();
    fail = true;
    const warning = page.getByRole('status').getByText('We could not refresh the status.');
    // Two refresh intervals, then the retry of the failed refresh (the fetches answer in real time between the clock's steps).
    await page.clock.runFor(120_000);
    await expect(async () => {
      await page.clock.runFor(1_000);
      await expect(warning).toBeVisible({ timeout: 500 });
    }).toPass({ timeout: 15_000 });
    await expect(page.getByRole('region', { name: 'Overall status' })).toHaveAttribute('data-stale', 'true');
    await expect(page.getByText('All systems operational', { exact: true })).toHaveCount(0);
    await expect(page.getByText('Last known: All systems operational')).toBeVisible();
    fail = false;
    await page.getByRole('status').getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByText('All systems operational', { exact: true })).toBeVisible();
    await expect(warning).toHaveCount(0);
    allowFailedResources(consoleErrors, [503]);
  });
});
