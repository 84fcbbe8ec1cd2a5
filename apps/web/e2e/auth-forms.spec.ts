import { DEMO_CREDENTIALS, MESSAGES } from '@conductor/shared';
import { allowFailedResources, expectToast, PASSWORD, registerAccount, uniqueEmail } from './auth-helpers';
import { expect, test, waitForHydration } from './fixtures';

test.describe('login form', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/login');
    await waitForHydration(page);
  });

  test('shows every validation message of the spec', async ({ page }) => {
    const email = page.getByLabel('Email', { exact: true });
    const password = page.getByLabel('Password', { exact: true });
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText(MESSAGES.login.emailRequired)).toBeVisible();
    await expect(page.getByText(MESSAGES.login.passwordRequired)).toBeVisible();
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toBeFocused();

    await email.fill('not-an-email');
    await password.fill('12345');
    await expect(page.getByText(MESSAGES.login.emailInvalid)).toBeVisible();
    await expect(page.getByText(MESSAGES.login.passwordTooShort)).toBeVisible();

    await email.fill('someone@example.com');
    await password.fill('123456');
    await expect(page.getByText(MESSAGES.login.emailInvalid)).toBeHidden();
    await expect(page.getByText(MESSAGES.login.passwordTooShort)).toBeHidden();
    await expect(email).not.toHaveAttribute('aria-invalid', 'true');
  });

  test('shows and hides the password', async ({ page }) => {
    const password = page.getByLabel('Password', { exact: true });
    await password.fill('secret-value');
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    await expect(password).toHaveAttribute('type', 'password');
  });

  test('has the demo box, remember me and the forgot-password link', async ({ page }) => {
    const demo = page.getByRole('region', { name: 'Demo account' });
    await expect(demo).toContainText(DEMO_CREDENTIALS.email);
    await expect(demo).toContainText(DEMO_CREDENTIALS.password);
    await demo.getByRole('button', { name: 'Use demo' }).click();
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue(DEMO_CREDENTIALS.email);
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue(DEMO_CREDENTIALS.password);
    await expect(page.getByLabel('Remember me for 30 days')).not.toBeChecked();
    await expect(page.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
    await expect(page.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/register');
  });

  test('a wrong password gives the spec toast and keeps the visitor here', async ({ page, request, consoleErrors }) => {
    const account = await registerAccount(request, 'wrong-password');
    await page.getByLabel('Email', { exact: true }).fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill('Not-the-password-9');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expectToast(page, MESSAGES.login.failure);
    await expect(page).toHaveURL(/\/login$/);
    allowFailedResources(consoleErrors, [401]);
  });

  test('says "Signing in..." while the request is on its way', async ({ page }) => {
    await page.route('**/api/v1/auth/login', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    await page.getByRole('region', { name: 'Demo account' }).getByRole('button', { name: 'Use demo' }).click();
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('button', { name: MESSAGES.login.submitting })).toBeDisabled();
    await expect(page).toHaveURL(/\/dashboard/);
  });
});

test.describe('register form', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/register');
    await waitForHydration(page);
  });

  test('lists the benefits and offers both tabs', async ({ page }) => {
    const benefits = page.getByRole('list', { name: 'What you get' });
    for (const benefit of ['Free 14-day trial', '10,000 tokens in the free plan', '6 LLM providers', 'Monitoring dashboard']) {
      await expect(benefits).toContainText(benefit);
    }
    await expect(page.getByRole('tab', { name: 'Email Signup' })).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('tab', { name: 'SSO/OIDC' }).click();
    await expect(page.getByRole('button', { name: 'Continue with Demo OIDC' })).toBeVisible();
  });

  test('shows every validation message of the spec', async ({ page }) => {
    const form = page.getByRole('form', { name: 'Create your account' });
    await page.getByRole('button', { name: 'Create Account' }).click();
    for (const message of [
      MESSAGES.register.nameRequired,
      MESSAGES.login.emailRequired,
      MESSAGES.register.passwordRequired,
      MESSAGES.register.confirmRequired,
      MESSAGES.register.acceptTerms,
    ]) {
      await expect(form.getByText(message, { exact: true })).toBeVisible();
    }
    await expect(page.getByLabel('Full name')).toBeFocused();

    await page.getByLabel('Full name').fill('A');
    await page.getByLabel('Email', { exact: true }).fill('ada@');
    await page.getByLabel('Password', { exact: true }).fill('Short1');
    await expect(form.getByText(MESSAGES.register.nameTooShort)).toBeVisible();
    await expect(form.getByText(MESSAGES.login.emailInvalid)).toBeVisible();
    await expect(form.getByText(MESSAGES.register.passwordTooShort)).toBeVisible();

    await page.getByLabel('Password', { exact: true }).fill('lowercase-only-1');
    await expect(form.getByText(MESSAGES.register.passwordComplexity)).toBeVisible();
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill('Harbour-Lantern-43');
    await expect(form.getByText(MESSAGES.register.passwordsDiffer)).toBeVisible();
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await expect(form.getByText(MESSAGES.register.passwordsDiffer)).toBeHidden();
    await page.getByLabel(/I agree to the/).check();
    await expect(form.getByText(MESSAGES.register.acceptTerms)).toBeHidden();
  });

  test('refuses a duplicate e-mail with a clear message', async ({ page, request, consoleErrors }) => {
    const existing = await registerAccount(request, 'duplicate');
    await page.getByLabel('Full name').fill('Second Person');
    await page.getByLabel('Email', { exact: true }).fill(existing.email.toUpperCase());
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByLabel(/I agree to the/).check();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByRole('form', { name: 'Create your account' }).getByText(MESSAGES.register.duplicateEmail)).toBeVisible();
    await expectToast(page, MESSAGES.register.failure);
    await expect(page).toHaveURL(/\/register$/);
    allowFailedResources(consoleErrors, [409]);
  });

  test('refuses a very common password', async ({ page, consoleErrors }) => {
    await page.getByLabel('Full name').fill('Common Choice');
    await page.getByLabel('Email', { exact: true }).fill(uniqueEmail('common'));
    await page.getByLabel('Password', { exact: true }).fill('Password123');
    await page.getByLabel('Confirm password').fill('Password123');
    await page.getByLabel(/I agree to the/).check();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByRole('form', { name: 'Create your account' }).getByText(MESSAGES.register.commonPassword)).toBeVisible();
    await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    allowFailedResources(consoleErrors, [400]);
  });
});
