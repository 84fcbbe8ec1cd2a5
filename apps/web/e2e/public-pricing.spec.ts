import { PLANS } from '@conductor/shared';
import { expect, test, waitForHydration } from './fixtures';

const card = (page: import('@playwright/test').Page, name: string) => page.getByRole('article', { name });

test.describe('pricing', () => {
  test('monthly prices by default; yearly shows Save 17% and the yearly price / 12 rounded down', async ({ page }) => {
    await page.goto('/pricing');
    await waitForHydration(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Simple, transparent pricing');
    const monthly = page.getByRole('button', { name: 'Monthly' });
    const yearly = page.getByRole('button', { name: 'Yearly' });
    await expect(monthly).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByText('Save 17%')).toHaveCount(0);
    await expect(card(page, 'Free').getByTestId('plan-price')).toHaveText('$0');
    await expect(card(page, 'Pro').getByTestId('plan-price')).toHaveText('$29');
    await expect(card(page, 'Enterprise').getByTestId('plan-price')).toHaveText('$199');

    await yearly.click();
    await expect(yearly).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByText('Save 17%')).toBeVisible();
    await expect(card(page, 'Pro').getByTestId('plan-price')).toHaveText('$24');
    await expect(card(page, 'Pro')).toContainText('/mo');
    await expect(card(page, 'Pro')).toContainText('Billed $299 yearly');
    await expect(card(page, 'Enterprise').getByTestId('plan-price')).toHaveText('$166');
    await expect(card(page, 'Enterprise')).toContainText('Billed $1,999 yearly');
    await expect(card(page, 'Free').getByTestId('plan-price')).toHaveText('$0');

    await monthly.click();
    await expect(page.getByText('Save 17%')).toHaveCount(0);
    await expect(card(page, 'Pro').getByTestId('plan-price')).toHaveText('$29');
  });

  test('cards list limits and features, Most Popular marks Pro only, and each button has its target', async ({ page }) => {
    await page.goto('/pricing');
    await waitForHydration(page);
    await expect(page.getByText('Most Popular', { exact: true })).toHaveCount(1);
    await expect(card(page, 'Pro').getByText('Most Popular')).toBeVisible();
    for (const plan of PLANS) {
      const planCard = card(page, plan.name);
      for (const feature of plan.features) await expect(planCard.getByText(feature, { exact: true })).toBeVisible();
      const button = planCard.getByRole('link', { name: new RegExp(`^${plan.cta}`) });
      const target =
        plan.id === 'enterprise'
          ? '/contact'
          : plan.id === 'pro'
            ? `/register?next=${encodeURIComponent('/dashboard/billing?plan=pro&period=monthly')}`
            : '/register';
      await expect(button).toHaveAttribute('href', target);
    }
    // Pro's button carries the period shown.
    await page.getByRole('button', { name: 'Yearly' }).click();
    await expect(card(page, 'Pro').getByRole('link', { name: /^Start Free Trial/ })).toHaveAttribute(
      'href',
      `/register?next=${encodeURIComponent('/dashboard/billing?plan=pro&period=yearly')}`,
    );
    await expect(card(page, 'Free').getByText('Free forever', { exact: true })).toBeVisible();
    await card(page, 'Enterprise')
      .getByRole('link', { name: /Contact Sales/ })
      .click();
    await expect(page).toHaveURL(/\/contact$/);
  });

  test('enterprise block, FAQ and closing buttons', async ({ page }) => {
    await page.goto('/pricing');
    await waitForHydration(page);
    const enterprise = page.getByRole('region', { name: 'Enterprise features' });
    await expect(enterprise.getByRole('heading', { level: 3 })).toHaveCount(6);
    const faq = page.getByRole('region', { name: 'Frequently asked questions' });
    const question = faq.locator('summary').filter({ hasText: 'What happens when I go over my plan’s tokens?' });
    const answer = faq.getByText(/overage is billed at \$0\.05 per 1K tokens/);
    await expect(answer).toBeHidden();
    await question.focus();
    await page.keyboard.press('Enter');
    await expect(answer).toBeVisible();
    await expect(faq.getByText(/About 4 characters of English text make one token/)).toBeHidden();
    const closing = page.getByRole('region', { name: 'Ready to route smarter?' });
    await expect(closing.getByRole('link', { name: 'Start Free Trial' })).toHaveAttribute('href', '/register');
    await expect(closing.getByRole('link', { name: 'Contact Sales' })).toHaveAttribute('href', '/contact');
  });

  test('plans come from GET /v1/observability/billing/plans', async ({ page }) => {
    await page.route('**/v1/observability/billing/plans', async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      expect(body.plans.map((plan: { id: string }) => plan.id)).toEqual(['free', 'pro', 'enterprise']);
      // Serve a visibly different Pro price: the page must show what the endpoint says.
      body.plans[1].price = { monthly: 31, yearly: 300 };
      await route.fulfill({ response, json: body });
    });
    await page.goto('/pricing');
    await expect(card(page, 'Pro').getByTestId('plan-price')).toHaveText('$31');
    await page.getByRole('button', { name: 'Yearly' }).click();
    await expect(card(page, 'Pro').getByTestId('plan-price')).toHaveText('$25');
  });

  test('the prerendered page already shows the plans without JavaScript', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/pricing');
    await expect(page.getByRole('article', { name: 'Pro' })).toContainText('$29');
    await expect(page.getByRole('article', { name: 'Enterprise' })).toContainText('$199');
    await context.close();
  });
});
