import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { WAITLIST_BASE_URL } from '../playwright.config';
import { expect, test, waitForHydration } from './fixtures';

const PUBLIC_PAGES = [
  '/',
  '/home',
  '/pricing',
  '/status',
  '/about',
  '/blog',
  '/careers',
  '/press',
  '/contact',
  '/privacy',
  '/terms',
  '/cookies',
  '/gdpr',
];

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      nodes: violation.nodes.map((node) => node.target.join(' ')).slice(0, 5),
    }));
}

test.describe('accessibility (axe: no serious or critical violations)', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const path of PUBLIC_PAGES) {
      test(`${path} (${colorScheme})`, async ({ browser, viewport }) => {
        const context = await browser.newContext({ viewport, colorScheme });
        const page = await context.newPage();
        await page.goto(path);
        await waitForHydration(page);
        // The live checks decide the headline (a busy test machine can read as degraded): any of
        // them is a rendered status page to scan.
        if (path === '/status') await page.getByText(/^(All systems operational|Some systems are degraded|Major outage)$/).waitFor();
        expect(await seriousViolations(page)).toEqual([]);
        await context.close();
      });
    }

    test(`coming-soon page (${colorScheme})`, async ({ browser, viewport }) => {
      const context = await browser.newContext({ viewport, colorScheme });
      const page = await context.newPage();
      await page.goto(`${WAITLIST_BASE_URL}/`);
      await waitForHydration(page);
      await page.getByRole('link', { name: /System status/ }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('textbox', { name: 'Work email' }).fill('nope');
      await page.getByRole('button', { name: 'Join the waitlist' }).click();
      await page.getByText('Please enter a valid email address').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    });
  }

  test('the demo dialog and the contact form errors', async ({ browser, viewport }) => {
    // Two pages, each hydrated and scanned twice by axe in a new browser context.
    test.slow();
    const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto('/home');
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Watch Demo' }).click();
    await page.getByRole('dialog').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await page.goto('/contact');
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('Full name is required').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
