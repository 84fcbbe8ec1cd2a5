import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test, waitForHydration } from './fixtures';

/**
 * The shared toaster is left out: sonner's rich error colours measure 4.35:1 in the light
 * theme (reported to the owner of components/ui/toaster.tsx); this spec checks the account pages.
 */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).exclude('[data-sonner-toaster]').analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({ id: violation.id, nodes: violation.nodes.map((node) => node.target.join(' ')).slice(0, 5) }));
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test.describe('account pages: accessible and never wider than the screen', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`login, register (both tabs, with errors), forgot and reset (${colorScheme})`, async ({ browser, viewport }) => {
      // Seven axe scans of six pages: about 30 s on a slow phone-sized run, so three times the usual time.
      test.slow();
      const context = await browser.newContext({ viewport, colorScheme });
      const page = await context.newPage();

      await page.goto('/login');
      await waitForHydration(page);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.getByText('Email is required').waitFor();
      expect(await seriousViolations(page), '/login').toEqual([]);
      expect(await overflow(page), '/login').toBeLessThanOrEqual(0);

      await page.goto('/register');
      await waitForHydration(page);
      await page.getByRole('button', { name: 'Create Account' }).click();
      await page.getByText('Full name is required').waitFor();
      expect(await seriousViolations(page), '/register').toEqual([]);
      expect(await overflow(page), '/register').toBeLessThanOrEqual(0);
      await page.getByRole('tab', { name: 'SSO/OIDC' }).click();
      await page.getByRole('button', { name: 'Continue with Demo OIDC' }).waitFor();
      await expect(page.getByRole('button', { name: 'Continue with Demo OIDC' })).toBeEnabled();
      expect(await seriousViolations(page), '/register SSO tab').toEqual([]);

      // The reset form itself, not the view of a link that no longer works: its check answers as for a good link.
      await page.route('**/api/v1/auth/reset-password/check', (route) => route.fulfill({ json: { usable: true } }));
      for (const path of ['/forgot-password', '/reset-password?token=abc', '/auth/callback?error=access_denied']) {
        await page.goto(path);
        await waitForHydration(page);
        if (path.startsWith('/reset-password')) await page.getByLabel('New password', { exact: true }).waitFor();
        expect(await seriousViolations(page), path).toEqual([]);
        expect(await overflow(page), path).toBeLessThanOrEqual(0);
      }
      await context.close();
    });
  }

  test('the form controls show a visible focus ring', async ({ page }) => {
    await page.goto('/login');
    await waitForHydration(page);
    await page.getByLabel('Email', { exact: true }).focus();
    await page.keyboard.press('Tab');
    const password = page.getByLabel('Password', { exact: true });
    await expect(password).toBeFocused();
    const outline = await password.evaluate((element) => getComputedStyle(element).outlineStyle);
    expect(outline).not.toBe('none');
  });
});
