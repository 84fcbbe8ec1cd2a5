import { WAITLIST_BASE_URL } from '../playwright.config';
import { expect, test, waitForHydration } from './fixtures';

test('SITE_MODE=waitlist serves the coming-soon page at / and the home page at /home', async ({ page }) => {
  await page.goto(`${WAITLIST_BASE_URL}/`);
  await waitForHydration(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/cuts your AI bill/);
  await expect(page.getByText('One API for every LLM')).toHaveCount(0);
  await page.goto(`${WAITLIST_BASE_URL}/home`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/One API for every LLM/);
});
