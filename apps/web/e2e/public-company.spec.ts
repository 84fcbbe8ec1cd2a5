import { CONTACT_MESSAGES } from '@conductor/shared/schemas/contact';
import { expect, test, waitForHydration } from './fixtures';
import { allowFailedResources, horizontalOverflow } from './public-helpers';

/** Every company and legal page, with its heading and a phrase its content must hold. */
const PAGES = [
  { path: '/about', heading: 'About Conductor', content: /one OpenAI-compatible API in front of OpenAI, Anthropic/ },
  { path: '/blog', heading: 'Blog', content: /Failover before the first byte/ },
  { path: '/careers', heading: 'Careers', content: /Senior Backend Engineer, Gateway/ },
  { path: '/press', heading: 'Press', content: /press@conductor\.dev/ },
  { path: '/contact', heading: 'Contact Us', content: /sales@conductor\.dev/ },
  { path: '/privacy', heading: 'Privacy Policy', content: /We do not store the content of your prompts or completions/ },
  { path: '/terms', heading: 'Terms of Service', content: /\$0\.05 per 1K tokens/ },
  { path: '/cookies', heading: 'Cookie Policy', content: /cc_session/ },
  { path: '/gdpr', heading: 'GDPR', content: /We do not store prompt or completion bodies/ },
] as const;

test.describe('company and legal pages', () => {
  for (const entry of PAGES) {
    test(`${entry.path}: heading, metadata, real content, no sideways scroll`, async ({ page }) => {
      const response = await page.goto(entry.path);
      expect(response?.status()).toBe(200);
      await waitForHydration(page);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(entry.heading);
      await expect(page).toHaveTitle(new RegExp(`${entry.heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*Conductor|Conductor`));
      await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /.{40,}/);
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /Conductor/);
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `https://conductor.dev${entry.path}`);
      const main = page.getByRole('main');
      await expect(main).toContainText(entry.content);
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text, as a reader sees it, is what is counted
      const words = (await main.innerText()).split(/\s+/).filter(Boolean).length;
      expect(words, 'a real page, not a placeholder').toBeGreaterThan(entry.path === '/contact' ? 60 : 150);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
    });
  }

  test('/contact: the other channels are kept from the prerendered page, work, and render after an in-app navigation', async ({ page }) => {
    const channels = page.getByRole('complementary', { name: 'Other ways to reach us' });
    await page.goto('/contact');
    await waitForHydration(page);
    await expect(channels.getByRole('link', { name: 'security@conductor.dev' })).toHaveAttribute('href', 'mailto:security@conductor.dev');
    // The kept markup's internal link navigates in the app.
    await channels.getByRole('link', { name: 'support centre' }).click();
    await expect(page).toHaveURL(/\/support\/contact$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Back to /contact without a page load: the channels load and render.
    await page.goBack();
    await expect(page).toHaveURL(/\/contact$/);
    await expect(channels.getByRole('link', { name: 'sales@conductor.dev' })).toBeVisible();
    await expect(channels).toContainText('Our team is available');
  });

  test('the privacy policy describes exactly what is stored', async ({ page }) => {
    await page.goto('/privacy');
    const main = page.getByRole('main');
    for (const phrase of [
      /argon2id hash/,
      /SHA-256 hash of your session token/,
      /AES-256-GCM/,
      /prompt and completion token counts, cost, latency/,
    ])
      await expect(main).toContainText(phrase);
  });

  test('the cookie policy lists the one cookie and the local storage keys', async ({ page }) => {
    await page.goto('/cookies');
    const main = page.getByRole('main');
    for (const phrase of ['cc_session', 'HttpOnly', 'conductor-theme', 'conductor-auth']) await expect(main).toContainText(phrase);
  });

  test('legal pages have a working table of contents for keyboard users', async ({ page }) => {
    await page.goto('/privacy');
    await waitForHydration(page);
    const toc = page.getByRole('navigation', { name: 'On this page' });
    const link = toc.getByRole('link', { name: 'What we do not store' });
    await link.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/#what-we-do-not-store$/);
    await expect(page.getByRole('heading', { level: 2, name: 'What we do not store' })).toBeInViewport();
  });
});

test.describe('contact form', () => {
  test('validates fields, then stores the message and confirms with a reference', async ({ page }) => {
    await page.goto('/contact');
    await waitForHydration(page);
    const form = page.getByRole('form', { name: 'Contact form' });
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByText('Full name is required')).toBeVisible();
    await expect(form.getByText(CONTACT_MESSAGES.topicRequired)).toBeVisible();
    await expect(form.getByText(CONTACT_MESSAGES.messageRequired)).toBeVisible();
    await expect(form.getByRole('textbox', { name: 'Full name' })).toHaveAttribute('aria-invalid', 'true');

    await form.getByRole('textbox', { name: 'Full name' }).fill('Lin Okafor');
    await form.getByRole('textbox', { name: 'Work email' }).fill('lin@acme.example');
    await form.getByRole('textbox', { name: /Company/ }).fill('Acme Robotics');
    await form.getByRole('combobox', { name: 'Topic' }).selectOption('sales');
    await form.getByRole('textbox', { name: 'Message' }).fill('Short');
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByText(CONTACT_MESSAGES.messageTooShort)).toBeVisible();

    await form
      .getByRole('textbox', { name: 'Message' })
      .fill('We route about 40M tokens a month and would like to discuss an Enterprise SLA.');
    const sent = page.waitForResponse('**/api/v1/contact');
    await form.getByRole('button', { name: 'Send message' }).click();
    expect((await sent).status()).toBe(201);
    const confirmation = page.getByRole('main').getByRole('status');
    await expect(confirmation).toContainText(/Message sent · reference C-\d+/);
    await expect(confirmation).toContainText(CONTACT_MESSAGES.success);
    await page.getByRole('button', { name: 'Send another message' }).click();
    await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('');
  });

  test('tells the visitor when sending fails', async ({ page, consoleErrors }) => {
    await page.route('**/api/v1/contact', (route) => route.fulfill({ status: 500, json: { error: { code: 'internal', message: 'x' } } }));
    await page.goto('/contact');
    await waitForHydration(page);
    const form = page.getByRole('form', { name: 'Contact form' });
    await form.getByRole('textbox', { name: 'Full name' }).fill('Lin Okafor');
    await form.getByRole('textbox', { name: 'Work email' }).fill('lin@acme.example');
    await form.getByRole('combobox', { name: 'Topic' }).selectOption('press');
    await form.getByRole('textbox', { name: 'Message' }).fill('A question about your launch for an article we are writing.');
    await form.getByRole('button', { name: 'Send message' }).click();
    await expect(form.getByRole('alert')).toHaveText(CONTACT_MESSAGES.failure);
    allowFailedResources(consoleErrors, [500]);
  });
});
