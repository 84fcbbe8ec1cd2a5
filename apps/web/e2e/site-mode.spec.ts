import { LANDING_META } from '@conductor/shared/constants/site-meta';
import { WAITLIST_BASE_URL } from '../playwright.config';
import { expect, test, waitForHydration } from './fixtures';

test.describe('SITE_MODE: the two readings of /', () => {
  test('SITE_MODE=waitlist serves the coming-soon page at / and the home page at /home', async ({ page }) => {
    await page.goto(`${WAITLIST_BASE_URL}/`);
    await waitForHydration(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/cuts your AI bill/);
    await expect(page.getByText('One API for every LLM')).toHaveCount(0);
    await expect(page).toHaveTitle(LANDING_META.waitlist.title);
    await expect(page.locator('meta[property="og:description"]')).toHaveAttribute('content', LANDING_META.waitlist.description);
    await expect(page.getByRole('form', { name: 'Join the waitlist' })).toBeVisible();
    await page.goto(`${WAITLIST_BASE_URL}/home`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/One API for every LLM/);
  });

  test('SITE_MODE=home (the default) serves the home page at /', async ({ page }) => {
    await page.goto('/');
    await waitForHydration(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/One API for every LLM/);
    await expect(page.getByText('cuts your AI bill')).toHaveCount(0);
    await expect(page).toHaveTitle(LANDING_META.home.title);
    await expect(page.locator('#features')).toHaveCount(1);
  });

  test('each reading is right before any JavaScript runs', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${WAITLIST_BASE_URL}/`);
    await expect(page).toHaveTitle(LANDING_META.waitlist.title);
    await expect(page.getByRole('heading', { level: 1, name: /cuts your AI bill/ })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: /One API for every LLM/ })).toBeHidden();
    await page.goto('/');
    await expect(page).toHaveTitle(LANDING_META.home.title);
    await expect(page.getByRole('heading', { level: 1, name: /One API for every LLM/ })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: /cuts your AI bill/ })).toBeHidden();
    await context.close();
  });
});
