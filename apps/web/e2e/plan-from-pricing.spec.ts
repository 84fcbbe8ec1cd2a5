import type { Page } from '@playwright/test';
import { confirmEmail, expectToast, PASSWORD, uniqueEmail } from './auth-helpers';
import { expect, test, waitForHydration } from './fixtures';

const BILLING_YEARLY = '/dashboard/billing?plan=pro&period=yearly';
const BILLING_MONTHLY = '/dashboard/billing?plan=pro&period=monthly';
const encoded = (path: string) => encodeURIComponent(path).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** On the pricing page, Pro's Start Free Trial for the period (the page shows monthly first). */
async function choosePro(page: Page, period: 'monthly' | 'yearly') {
  await page.goto('/pricing');
  await waitForHydration(page);
  if (period === 'yearly') await page.getByRole('button', { name: 'Yearly' }).click();
  await page
    .getByRole('article', { name: 'Pro' })
    .getByRole('link', { name: /^Start Free Trial/ })
    .click();
}

/** Onboarding finished (hosted): Billing, with the change dialog open on Pro and the period, the request gone from the address. */
async function finishOnboardingToPlanChange(page: Page, period: 'monthly' | 'yearly') {
  await page.getByRole('button', { name: /Hosted Service/ }).click();
  await page.getByRole('button', { name: 'Go to Dashboard' }).click();
  return expectPlanChangeOpen(page, period);
}

async function expectPlanChangeOpen(page: Page, period: 'monthly' | 'yearly') {
  await expect(page).toHaveURL(/\/dashboard\/billing$/);
  const dialog = page.getByRole('dialog', { name: 'Change plan' });
  await expect(dialog.getByRole('radio', { name: /^Pro/ })).toBeChecked();
  await expect(dialog.getByRole('radio', { name: period })).toHaveAttribute('aria-checked', 'true');
  return dialog;
}

test('a plan chosen on the pricing page goes with the visitor through sign-up and onboarding to Billing, and opens there when signed in', async ({
  page,
}) => {
  test.slow();
  await choosePro(page, 'yearly');
  // The register page names the choice, and its sign-in link keeps it for an existing account.
  await expect(page).toHaveURL(new RegExp(`/register\\?next=${encoded(BILLING_YEARLY)}$`));
  await waitForHydration(page);
  await expect(page.getByTestId('chosen-plan')).toHaveText(
    'You chose the Pro plan (yearly). Once your account is set up, Billing opens with it: your free trial starts there, with a confirmed email address.',
  );
  await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toHaveAttribute(
    'href',
    `/login?next=${encodeURIComponent(BILLING_YEARLY)}`,
  );

  const email = uniqueEmail('pricing-pro');
  await page.getByLabel('Full name').fill('Katherine Johnson');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByLabel(/I agree to the/).check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(new RegExp(`/onboarding\\?next=${encoded(BILLING_YEARLY)}$`));
  await confirmEmail(page, email);

  // Billing, with the change asked for open and quoted.
  const dialog = await finishOnboardingToPlanChange(page, 'yearly');
  await expect(dialog.getByTestId('trial-terms')).toContainText('Free trial until');
  await dialog.getByRole('button', { name: 'Confirm change' }).click();
  await expectToast(page, /^Your Pro free trial has started: nothing is billed until /);
  await expect(page.getByTestId('current-plan')).toHaveText('Pro');
  await expect(dialog).toBeHidden();
  // A reload does not ask again.
  await page.reload();
  await expect(page.getByTestId('current-plan')).toHaveText('Pro');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Signed in, the pricing page's button opens the plan change at once (here: the monthly period, in the trial).
  await choosePro(page, 'monthly');
  const inTrial = await expectPlanChangeOpen(page, 'monthly');
  await expect(inTrial.getByText(/^You are in your free trial/)).toBeVisible();
  await expect(inTrial.getByTestId('proration-preview')).toContainText('Pro plan (monthly), free trial');
  await inTrial.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('current-plan')).toHaveText('Pro');
});

test('a plan chosen on the pricing page survives a sign-up through single sign-on', async ({ page }) => {
  await choosePro(page, 'monthly');
  await expect(page).toHaveURL(new RegExp(`/register\\?next=${encoded(BILLING_MONTHLY)}$`));
  await waitForHydration(page);
  await page.getByRole('tab', { name: 'SSO/OIDC' }).click();
  await page.getByRole('button', { name: 'Continue with Demo OIDC' }).click();
  await expect(page.getByText('A new demo identity')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(new RegExp(`/onboarding\\?next=${encoded(BILLING_MONTHLY)}$`), { timeout: 15_000 });
  // The provider confirmed the address: the trial is quoted at once.
  const dialog = await finishOnboardingToPlanChange(page, 'monthly');
  await expect(dialog.getByTestId('trial-terms')).toContainText('Free trial until');
});
