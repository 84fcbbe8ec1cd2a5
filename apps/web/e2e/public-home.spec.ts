import { HOME_NOTES, MESSAGES, SUPPORT } from '@conductor/shared';
import { expect, test, waitForHydration } from './fixtures';
import { allowFailedResources, horizontalOverflow, uniqueEmail } from './public-helpers';

test.describe('home page', () => {
  for (const path of ['/', '/home']) {
    test(`${path}: hero, notes, stats, six features, testimonials and closing call to action`, async ({ page }) => {
      await page.goto(path);
      await waitForHydration(page);
      const main = page.getByRole('main');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('One API for every LLM. Routed, resilient and cost-aware.');
      await expect(main.getByRole('link', { name: 'Start Free Trial' }).first()).toHaveAttribute('href', '/register');
      await expect(main.getByRole('button', { name: 'Watch Demo' })).toBeVisible();
      for (const note of HOME_NOTES) await expect(main.getByText(note, { exact: true })).toBeVisible();

      // The hero's code sample points at the same base URL as the docs' examples.
      await expect(main.locator('pre').first()).toContainText("baseURL: 'https://conductor.dev/v1'");

      const stats = page.getByRole('region', { name: 'Conductor in numbers' });
      for (const [value, label] of [
        ['10M+', 'API calls'],
        ['40%', 'cost savings'],
        ['99.9%', 'uptime'],
        ['20+', 'models across 6 providers'],
      ] as const) {
        await expect(stats.getByText(value, { exact: true })).toBeVisible();
        await expect(stats.getByText(label, { exact: true })).toBeVisible();
      }

      const features = page.locator('#features');
      await expect(features.getByRole('heading', { level: 3 })).toHaveText([
        'Intelligent routing',
        'Enterprise security',
        'Real-time analytics',
        'High performance',
        'Cost optimisation',
        'Easy integration',
      ]);

      const testimonials = page.getByRole('region', { name: 'Trusted by teams shipping AI to production' });
      const quotes = testimonials.getByRole('listitem');
      await expect(quotes).toHaveCount(3);
      for (const name of ['Sarah Chen', 'Marcus Johnson', 'Elena Rodriguez']) await expect(testimonials.getByText(name)).toBeVisible();
      const avatars = testimonials.locator('img');
      await expect(avatars).toHaveCount(3);
      for (const avatar of await avatars.all()) {
        await avatar.scrollIntoViewIfNeeded();
        await expect.poll(() => avatar.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
      }

      const cta = page.getByRole('region', { name: 'Route your first request in five minutes' });
      await expect(cta.getByRole('link', { name: 'Start Free Trial' })).toHaveAttribute('href', '/register');
      await expect(cta.getByRole('link', { name: 'Read the Docs' })).toHaveAttribute('href', '/docs');
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    });
  }

  test('Start Free Trial goes to /register and the #features anchor is reachable from the footer', async ({ page }) => {
    await page.goto('/pricing');
    await waitForHydration(page);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Features' }).click();
    await expect(page).toHaveURL(/\/home#features$/);
    await expect(page.locator('#features')).toBeInViewport();
    await page.getByRole('main').getByRole('link', { name: 'Start Free Trial' }).first().click();
    await expect(page).toHaveURL(/\/register$/);
  });

  test('Watch Demo opens a product walkthrough: real screens, captions, keyboard controls, focus kept inside, Escape closes', async ({
    page,
  }) => {
    await page.clock.install();
    await page.goto('/home');
    await waitForHydration(page);
    const trigger = page.getByRole('button', { name: 'Watch Demo' });
    await trigger.click();
    const dialog = page.getByRole('dialog', { name: 'Conductor in five steps' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('Step 1 of 5')).toBeVisible();
    await expect(dialog.getByTestId('demo-step-title')).toHaveText('Create an API key');
    const screen = dialog.getByRole('img', { name: /^Create an API key:/ });
    await expect.poll(() => screen.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);

    // It plays on its own...
    await page.clock.runFor(5_100);
    await expect(dialog.getByTestId('demo-step-title')).toHaveText('Make your first request');
    // ...and can be paused and driven by hand.
    await dialog.getByRole('button', { name: 'Pause' }).click();
    await page.clock.runFor(12_000);
    await expect(dialog.getByText('Step 2 of 5')).toBeVisible();
    await dialog.getByRole('button', { name: 'Next step' }).click();
    await expect(dialog.getByTestId('demo-step-title')).toHaveText('Fail over automatically');
    await dialog.getByRole('button', { name: 'Step 5: Spend less' }).click();
    await expect(dialog.getByText('Step 5 of 5')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Next step' })).toBeDisabled();

    for (let index = 0; index < 12; index += 1) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();
  });

  test('every demo screen ships with the site', async ({ request }) => {
    for (const image of ['01-create-key', '02-first-request', '03-failover', '04-usage', '05-savings']) {
      const response = await request.get(`/demo/${image}.svg`);
      expect(response.status(), image).toBe(200);
      expect(response.headers()['content-type']).toContain('image/svg+xml');
    }
  });
});

test.describe('footer subscribe', () => {
  test('subscribes through the waitlist API with its own source, then reports a duplicate', async ({ page, consoleErrors }) => {
    await page.goto('/about');
    await waitForHydration(page);
    const form = page.getByRole('form', { name: 'Subscribe to updates' });
    const input = form.getByRole('textbox', { name: 'Email address' });
    const email = uniqueEmail('footer');
    await input.fill(email);
    const request = page.waitForRequest((candidate) => candidate.url().endsWith('/v1/waitlist'));
    await form.getByRole('button', { name: 'Subscribe' }).click();
    expect((await request).postDataJSON()).toEqual({ email, source: 'footer' });
    await expect(form.getByRole('status')).toHaveText(MESSAGES.subscribe.success);
    await expect(input).toHaveValue('');

    await input.fill(email);
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(form.getByRole('status')).toHaveText(MESSAGES.subscribe.duplicate);
    allowFailedResources(consoleErrors, [409]);
  });

  test('shows the invalid-address and failure messages', async ({ page, consoleErrors }) => {
    await page.goto('/about');
    await waitForHydration(page);
    const form = page.getByRole('form', { name: 'Subscribe to updates' });
    await form.getByRole('textbox', { name: 'Email address' }).fill('nope');
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(form.getByRole('status')).toHaveText(MESSAGES.waitlist.invalidEmail);

    await page.route('**/v1/waitlist', (route) => route.fulfill({ status: 503, body: '' }));
    await form.getByRole('textbox', { name: 'Email address' }).fill('someone@example.com');
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(form.getByRole('status')).toHaveText(MESSAGES.waitlist.otherFailure(SUPPORT.email));
    allowFailedResources(consoleErrors, [503]);
  });
});
