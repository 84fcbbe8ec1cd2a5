import { MESSAGES, SUPPORT } from '@conductor/shared';
import { LANDING_META } from '@conductor/shared/constants/site-meta';
import { WAITLIST_BASE_URL } from '../playwright.config';
import { expect, test, waitForHydration } from './fixtures';
import { allowFailedResources, horizontalOverflow, uniqueEmail } from './public-helpers';

const HEALTH = '**/v1/health';
const WAITLIST = '**/v1/waitlist';
const healthBody = (status: 'operational' | 'degraded') => ({
  status,
  version: '0.1.0',
  uptimeSeconds: 10,
  checks: { database: 'operational', gateway: status },
  providers: { available: 1, total: 6, configured: ['openai'] },
  timestamp: new Date().toISOString(),
});

test.describe('coming-soon page (SITE_MODE=waitlist)', () => {
  test('shows the headline, links, feature trio, trust strip and a simplified footer', async ({ page }) => {
    await page.goto(`${WAITLIST_BASE_URL}/`);
    await waitForHydration(page);
    await expect(page).toHaveTitle(LANDING_META.waitlist.title);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', LANDING_META.waitlist.description);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('The LLM gateway that cuts your AI bill by up to 70%');
    const main = page.getByRole('main');
    await expect(main.getByRole('link', { name: 'Developer portal' })).toHaveAttribute('href', '/portal');
    await expect(main.getByRole('link', { name: 'Read the docs' })).toHaveAttribute('href', '/docs');
    for (const feature of ['Intelligent routing', 'Cost analytics', 'Secure by default'])
      await expect(main.getByRole('heading', { level: 3, name: feature })).toBeVisible();
    const trust = page.getByRole('region', { name: 'Why teams choose Conductor' });
    for (const [value, label] of [
      ['99.9%', 'uptime'],
      ['15+', 'providers'],
      ['<245ms', 'latency'],
      ['70%', 'cost reduction'],
    ] as const) {
      await expect(trust.getByText(value, { exact: true })).toBeVisible();
      await expect(trust.getByText(label, { exact: true })).toBeVisible();
    }
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByText(/© \d{4} Conductor/)).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Privacy' })).toHaveAttribute('href', '/privacy');
    await expect(page.getByRole('heading', { name: 'Stay updated' })).toHaveCount(0);
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
  });

  test('status badge: Operational in green from GET /v1/health', async ({ page }) => {
    await page.goto(`${WAITLIST_BASE_URL}/`);
    const badge = page.getByRole('link', { name: 'System status: Operational' });
    await expect(badge).toBeVisible();
    await expect(badge).toHaveAttribute('data-status', 'operational');
    await expect(badge).toHaveClass(/text-success/);
    await expect(badge).toHaveAttribute('href', '/status');
  });

  test('status badge: hidden while loading, Degraded in yellow, refreshed every 60 seconds', async ({ page }) => {
    await page.clock.install();
    let calls = 0;
    let release: () => void = () => undefined;
    const firstAnswer = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(HEALTH, async (route) => {
      calls += 1;
      if (calls === 1) await firstAnswer;
      await route.fulfill({ json: healthBody(calls === 1 ? 'degraded' : 'operational') });
    });
    await page.goto(`${WAITLIST_BASE_URL}/`);
    await expect.poll(() => calls).toBe(1);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: /System status/ })).toHaveCount(0);
    release();
    const badge = page.getByRole('link', { name: 'System status: Degraded' });
    await expect(badge).toBeVisible();
    await expect(badge).toHaveClass(/text-warning/);
    await page.clock.runFor(55_000);
    expect(calls).toBe(1);
    await page.clock.runFor(6_000);
    await expect.poll(() => calls).toBe(2);
    await expect(page.getByRole('link', { name: 'System status: Operational' })).toBeVisible();
  });

  test('status badge: hidden when the health call fails', async ({ page, consoleErrors }) => {
    await page.route(HEALTH, (route) => route.fulfill({ status: 500, json: { error: { message: 'boom' } } }));
    const failed = page.waitForResponse(HEALTH);
    await page.goto(`${WAITLIST_BASE_URL}/`);
    await failed;
    await waitForHydration(page);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: /System status/ })).toHaveCount(0);
    allowFailedResources(consoleErrors, [500]);
  });

  test('waitlist: success shows the server message and a portal link, and clears the input; a second try is a duplicate', async ({
    page,
    consoleErrors,
  }) => {
    await page.goto(`${WAITLIST_BASE_URL}/`);
    await waitForHydration(page);
    const form = page.getByRole('form', { name: 'Join the waitlist' });
    const input = form.getByRole('textbox', { name: 'Work email' });
    await expect(input).toHaveAttribute('required', '');
    await expect(form.getByRole('status')).toHaveText('');
    const email = uniqueEmail('waitlist');
    await input.fill(email);
    await form.getByRole('button', { name: 'Join the waitlist' }).click();
    await expect(form.getByRole('status')).toContainText(MESSAGES.waitlist.success);
    await expect(form.getByRole('link', { name: 'Open the developer portal' })).toHaveAttribute('href', '/portal');
    await expect(input).toHaveValue('');

    await input.fill(email.toUpperCase());
    await form.getByRole('button', { name: 'Join the waitlist' }).click();
    await expect(form.getByRole('status')).toHaveText(MESSAGES.waitlist.duplicate);
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    allowFailedResources(consoleErrors, [409]);
  });

  test('waitlist: an invalid address is refused in the browser without a request', async ({ page }) => {
    let requests = 0;
    await page.route(WAITLIST, (route) => {
      requests += 1;
      return route.continue();
    });
    await page.goto(`${WAITLIST_BASE_URL}/`);
    await waitForHydration(page);
    const form = page.getByRole('form', { name: 'Join the waitlist' });
    for (const value of ['', 'not-an-email', 'someone@example', 'two words@example.com']) {
      await form.getByRole('textbox', { name: 'Work email' }).fill(value);
      await form.getByRole('button', { name: 'Join the waitlist' }).click();
      await expect(form.getByRole('status')).toHaveText(MESSAGES.waitlist.invalidEmail);
    }
    expect(requests).toBe(0);
  });

  test('waitlist: loading state while the request is in flight, then the server error message', async ({ page, consoleErrors }) => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(WAITLIST, async (route) => {
      expect(route.request().postDataJSON()).toMatchObject({ email: 'slow@example.com', source: 'coming_soon_page' });
      await held;
      await route.fulfill({ status: 500, json: { error: { message: 'internal', type: 'api_error', param: null, code: 'internal' } } });
    });
    await page.goto(`${WAITLIST_BASE_URL}/`);
    await waitForHydration(page);
    const form = page.getByRole('form', { name: 'Join the waitlist' });
    await form.getByRole('textbox', { name: 'Work email' }).fill('slow@example.com');
    await form.getByRole('button', { name: 'Join the waitlist' }).click();
    const busy = form.getByRole('button', { name: 'Joining...' });
    await expect(busy).toBeDisabled();
    release();
    await expect(form.getByRole('status')).toHaveText(MESSAGES.waitlist.otherFailure(SUPPORT.email));
    await expect(form.getByRole('button', { name: 'Join the waitlist' })).toBeEnabled();
    allowFailedResources(consoleErrors, [500]);
  });

  test('waitlist: a 400 from the server shows the invalid-address message', async ({ page, consoleErrors }) => {
    await page.route(WAITLIST, (route) =>
      route.fulfill({ status: 400, json: { error: { message: 'Invalid', type: 'invalid_request_error', param: 'email', code: 'x' } } }),
    );
    await page.goto(`${WAITLIST_BASE_URL}/`);
    await waitForHydration(page);
    const form = page.getByRole('form', { name: 'Join the waitlist' });
    await form.getByRole('textbox', { name: 'Work email' }).fill('valid@example.com');
    await form.getByRole('button', { name: 'Join the waitlist' }).click();
    await expect(form.getByRole('status')).toHaveText(MESSAGES.waitlist.invalidEmail);
    allowFailedResources(consoleErrors, [400]);
  });
});
