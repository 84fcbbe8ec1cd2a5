import { MESSAGES, SUPPORT } from '@conductor/shared';
import { TICKET_MESSAGES } from '@conductor/shared/schemas/support';
import { allowFailedResources, expectToast, registerAccount } from './auth-helpers';
import { expect, test, waitForHydration } from './fixtures';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2 * 1024 * 1024, 7)]);

test.describe('support centre', () => {
  test('FAQ: filter by category, search, "No results found", expand and collapse', async ({ page }) => {
    await page.goto('/support');
    await waitForHydration(page);
    const questions = page.getByRole('list', { name: 'Questions' });
    await expect(questions.getByText('What is Conductor?')).toBeVisible();

    await page.getByRole('button', { name: 'Billing & Plans' }).click();
    await expect(page.getByRole('button', { name: 'Billing & Plans' })).toHaveAttribute('aria-pressed', 'true');
    await expect(questions.getByText('How are tokens counted?')).toBeVisible();
    await expect(questions.getByText('What is Conductor?')).toBeHidden();

    await page.getByRole('searchbox', { name: 'Search for help' }).fill('proration');
    await expect(questions.locator('summary')).toHaveCount(1);
    await expect(questions.getByText('Can I change my plan at any time?')).toBeVisible();
    // Beside the search, what it found in the category chosen (the FAQ is below the contact options), with a way there.
    const found = page.getByTestId('search-results');
    await expect(found).toHaveText('1 matching answer in Billing & Plans below');
    await found.click();
    await expect(page).toHaveURL(/#faq-title$/);
    await expect(questions.getByText('Can I change my plan at any time?')).toBeInViewport();

    const question = questions.locator('details').first();
    await question.locator('summary').click();
    await expect(question.getByText('take effect at once, with proration')).toBeVisible();
    await question.locator('summary').click();
    await expect(question.getByText('take effect at once, with proration')).toBeHidden();

    await page.getByRole('searchbox', { name: 'Search for help' }).fill('4 characters');
    await expect(page.getByText(MESSAGES.support.noResults)).toBeHidden();
    await page.getByRole('button', { name: 'Technical' }).click();
    // Shown inside a live region that was already on the page, so screen readers announce it.
    await expect(page.getByRole('status').getByText(MESSAGES.support.noResults)).toBeVisible();
    // The category narrows the search: it is named, with the way to the category buttons.
    await expect(found).toHaveText('No matching answers in Technical');
    await expect(found).toHaveAttribute('href', '#faq-title');
    await page.getByRole('button', { name: 'All' }).click();
    await expect(questions.getByText('How are tokens counted?')).toBeVisible();
    await expect(found).toHaveText(/^[1-9]\d* matching answers? in the FAQ below$/);
    await page.getByRole('searchbox', { name: 'Search for help' }).fill('zzzz nothing like this');
    await expect(found).toHaveText('No matching answers: open a ticket');
    await expect(found).toHaveAttribute('href', '#ticket');
    await page.getByRole('searchbox', { name: 'Search for help' }).fill('');
    await expect(found).toHaveCount(0);
  });

  test('contact options: live chat prefills the ticket form, e-mail and forum links', async ({ page }) => {
    await page.goto('/support');
    await waitForHydration(page);
    await expect(page.getByRole('link', { name: 'Send Email' })).toHaveAttribute('href', `mailto:${SUPPORT.email}`);
    await page.getByRole('button', { name: 'Start Chat' }).click();
    await expect(page.getByLabel('Subject')).toHaveValue('Live chat request');
    const note = page.getByTestId('live-chat-note');
    await expect(note).toContainText(SUPPORT.hours);
    await expect(note).toContainText('24/7 for Pro+');
    await expect(page.getByLabel('Description')).toBeFocused();
    // The form is scrolled to its top: the note shows below the sticky header, not under it.
    const header = page.locator('header').first();
    await expect
      .poll(async () => {
        const [noteBox, headerBox] = [await note.boundingBox(), await header.boundingBox()];
        return noteBox !== null && headerBox !== null && noteBox.y >= headerBox.y + headerBox.height;
      })
      .toBe(true);
    await page.getByRole('link', { name: 'Visit Forum' }).click();
    await expect(page).toHaveURL(/\/support\/community$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Community');
  });

  test('system status, resources and contact details', async ({ page }) => {
    await page.goto('/support');
    await waitForHydration(page);
    await expect(page.getByTestId('overall-status')).toHaveText(/All systems operational|Some systems degraded|Service outage/);
    await expect(page.getByText('Database', { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Quick Start guide' })).toHaveAttribute('href', '/docs/quick-start');
    await expect(page.getByText(SUPPORT.hours).first()).toBeVisible();
  });

  test('system status falls back to the health check, Redis included, when the status history is unavailable', async ({
    page,
    consoleErrors,
  }) => {
    await page.route('**/v1/status', (route) => route.fulfill({ status: 503, json: { error: { message: 'unavailable' } } }));
    await page.route('**/v1/health', (route) =>
      route.fulfill({
        json: {
          status: 'degraded',
          version: '1.0.0',
          uptimeSeconds: 60,
          checks: { database: 'operational', gateway: 'operational', redis: 'degraded' },
          providers: { available: 1, total: 1, configured: ['openai'] },
          timestamp: new Date().toISOString(),
        },
      }),
    );
    await page.goto('/support');
    await waitForHydration(page);
    await expect(page.getByTestId('overall-status')).toHaveText('Some systems degraded');
    const redis = page.getByRole('listitem').filter({ hasText: 'Redis' });
    await expect(redis.getByText('Degraded', { exact: true })).toHaveClass(/text-warning/);
    await expect(page.getByRole('listitem').filter({ hasText: 'Database' }).getByText('Operational', { exact: true })).toBeVisible();
    allowFailedResources(consoleErrors, [503]);
  });

  test('a signed-in user submits a ticket with an attachment: progress, number, e-mail and stored record', async ({ page }) => {
    const account = await registerAccount(page.request, 'ticket');
    await page.goto('/support');
    await waitForHydration(page);
    await expect(page.getByText(`Signed in as ${account.email}`)).toBeVisible();
    await page.getByLabel('Subject').fill('Streams stop after a minute');
    await page.getByLabel('Priority').selectOption('high');
    await page.getByLabel('Description').fill('A streamed answer from claude-3-5-sonnet ends after about 60 seconds.');
    await page.getByLabel('Attachments').setInputFiles({ name: 'screenshot.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByRole('list', { name: 'Attached files' })).toContainText('screenshot.png');

    // Record every state of the progress bar while the upload runs.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      new MutationObserver(() => {
        const bar = document.querySelector('[role="progressbar"]');
        if (bar) seen.push(bar.getAttribute('aria-valuenow') ?? '');
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await page.getByRole('button', { name: 'Submit Ticket' }).click();
    const success = page.getByRole('status').filter({ hasText: 'created' });
    await expect(success).toContainText(/Ticket #\d+ created/);
    const number = Number((await success.textContent())?.match(/#(\d+)/)?.[1]);
    expect(await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen.length)).toBeGreaterThan(0);

    const list = page.getByRole('list', { name: 'Your tickets' });
    await expect(list).toContainText(`#${number}`);
    await expect(list).toContainText('Streams stop after a minute');

    const tickets = (await (await page.request.get('/api/v1/support/tickets')).json()).tickets;
    expect(tickets[0]).toMatchObject({ number, subject: 'Streams stop after a minute', priority: 'high', email: account.email });
    expect(tickets[0].attachments).toEqual([
      expect.objectContaining({ filename: 'screenshot.png', mimeType: 'image/png', sizeBytes: PNG.length }),
    ]);
    const download = await page.request.get(`/api/v1/support/attachments/${tickets[0].attachments[0].id}`);
    expect(Buffer.from(await download.body()).equals(PNG)).toBe(true);

    await expect
      .poll(async () => {
        const outbox = await page.request.get(`/api/v1/auth/dev-outbox?to=${encodeURIComponent(account.email)}&kind=support_ticket`);
        const { messages } = (await outbox.json()) as { messages: { subject: string }[] };
        return messages[0]?.subject ?? '';
      })
      .toContain(`Ticket #${number}`);
  });

  test('a session that ends while the form is open: the form stays as typed and asks for a name and e-mail', async ({
    page,
    consoleErrors,
  }) => {
    const account = await registerAccount(page.request, 'ticket-ended');
    await page.goto('/support');
    await waitForHydration(page);
    await expect(page.getByText(`Signed in as ${account.email}`)).toBeVisible();
    // The account's ticket list has loaded (were it still loading, its request would meet the ended session first).
    await expect(page.getByText('No tickets yet')).toBeVisible();
    await page.getByLabel('Subject').fill('Session ended mid-ticket');
    await page.getByLabel('Description').fill('Typed while signed in.');
    // The session ends on the server (here: its cookie is gone) before the ticket is sent.
    await page.context().clearCookies();
    await page.getByRole('button', { name: 'Submit Ticket' }).click();
    await expect(page.getByRole('alert').filter({ hasText: TICKET_MESSAGES.sessionEnded })).toBeVisible();
    // Logged out through the shared 401 handling, with the spec's toast.
    await expectToast(page, MESSAGES.sessionExpired);
    await expect(page.getByLabel('Name', { exact: true })).toBeFocused();
    await expect(page.getByText(TICKET_MESSAGES.nameRequired)).toBeVisible();
    await expect(page.getByText(TICKET_MESSAGES.emailRequired)).toBeVisible();
    await expect(page.getByLabel('Subject')).toHaveValue('Session ended mid-ticket');
    await expect(page.getByLabel('Description')).toHaveValue('Typed while signed in.');
    await expect(page).toHaveURL(/\/support$/);

    await page.getByLabel('Name', { exact: true }).fill('Ada Returning');
    await page.getByLabel('Email', { exact: true }).fill(account.email);
    await page.getByRole('button', { name: 'Submit Ticket' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'created' })).toContainText(/Ticket #\d+ created/);
    // The ticket sent for the account after its session ended was refused: 401 session_expired.
    allowFailedResources(consoleErrors, [401]);
  });

  test('a visitor submits a ticket from the contact page', async ({ page }) => {
    await page.goto('/support/contact');
    await waitForHydration(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contact Support');
    await page.getByLabel('Name', { exact: true }).fill('Ada Visitor');
    await page.getByLabel('Email', { exact: true }).fill(`ada-${Date.now()}@example.com`);
    await page.getByLabel('Subject').fill('Question about plans');
    await page.getByLabel('Category').selectOption('billing');
    await page.getByLabel('Description').fill('Can I move from Pro to Enterprise mid-month?');
    await page.getByRole('button', { name: 'Submit Ticket' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'created' })).toContainText(/Ticket #\d+ created/);
  });

  test('refuses a program renamed to .png, a file over 10 MB and a missing subject', async ({ page }) => {
    await page.goto('/support');
    await waitForHydration(page);
    const attachments = page.getByLabel('Attachments');

    const program = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(4096, 0x90)]);
    await attachments.setInputFiles({ name: 'setup.png', mimeType: 'image/png', buffer: program });
    await expect(page.getByText(TICKET_MESSAGES.attachmentType('setup.png'))).toBeVisible();
    await expect(page.getByRole('list', { name: 'Attached files' })).toBeHidden();

    const huge = Buffer.concat([PNG.subarray(0, 8), Buffer.alloc(11 * 1024 * 1024, 1)]);
    await attachments.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: huge });
    await expect(page.getByText(TICKET_MESSAGES.attachmentTooLarge('huge.png'))).toBeVisible();
    await expect(page.getByRole('list', { name: 'Attached files' })).toBeHidden();

    let posted = false;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/v1/support/tickets') && request.method() === 'POST') posted = true;
    });
    await page.getByLabel('Name', { exact: true }).fill('Ada Visitor');
    await page.getByLabel('Email', { exact: true }).fill('ada@example.com');
    await page.getByLabel('Description').fill('No subject on purpose.');
    await page.getByRole('button', { name: 'Submit Ticket' }).click();
    await expect(page.getByText(TICKET_MESSAGES.subjectRequired)).toBeVisible();
    await expect(page.getByLabel('Subject')).toHaveAttribute('aria-invalid', 'true');
    expect(posted).toBe(false);
  });

  test('the ticket form keeps what a visitor typed, picked and submitted while its code loads', async ({ page }) => {
    // The form's code (loaded on first use) is held back until the visitor has filled part of it in and pressed Submit.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let requested = false;
    await page.route(/\/assets\/ticket-panel-[\w-]+\.js$/, async (route) => {
      requested = true;
      await held;
      await route.continue();
    });
    await page.goto('/support/contact');
    await waitForHydration(page);
    expect(requested).toBe(false);

    await page.getByLabel('Name', { exact: true }).fill('Ada Visitor');
    await page.getByLabel('Email', { exact: true }).fill(`ada-${Date.now()}@example.com`);
    await page.getByLabel('Subject').fill('Slow connection');
    await page.getByLabel('Priority').selectOption('high');
    await page.getByLabel('Attachments').setInputFiles({ name: 'screenshot.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: 'Submit Ticket' }).click();
    expect(requested).toBe(true);
    release();

    // The submit is made again with the form's own checks: the empty description is refused and focused.
    await expect(page.getByText(TICKET_MESSAGES.descriptionRequired)).toBeVisible();
    await expect(page.getByLabel('Description')).toBeFocused();
    await expect(page).toHaveURL(/\/support\/contact$/);
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Ada Visitor');
    await expect(page.getByLabel('Subject')).toHaveValue('Slow connection');
    await expect(page.getByLabel('Priority')).toHaveValue('high');
    await expect(page.getByRole('list', { name: 'Attached files' })).toContainText('screenshot.png');

    await page.getByLabel('Description').fill('Uploads stall on a slow connection.');
    await page.getByRole('button', { name: 'Submit Ticket' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'created' })).toContainText(/Ticket #\d+ created/);
    await expect(page.getByRole('status').filter({ hasText: 'created' })).toContainText('Attached: screenshot.png');
  });

  test('typing goes on in the same field when the form has loaded', async ({ page }) => {
    await page.goto('/support');
    await waitForHydration(page);
    const subject = page.getByLabel('Subject');
    await subject.click();
    await page.keyboard.type('Streams stop');
    await page.waitForLoadState('networkidle');
    await page.keyboard.type(' after a minute');
    await expect(subject).toHaveValue('Streams stop after a minute');
    await expect(subject).toBeFocused();
  });

  test('after a client-side navigation the pages render in full', async ({ page }) => {
    await page.goto('/support/contact');
    await waitForHydration(page);
    await page.getByRole('link', { name: 'help centre' }).click();
    await expect(page).toHaveURL(/\/support$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('How can we help?');
    const questions = page.getByRole('list', { name: 'Questions' });
    await page.getByRole('searchbox', { name: 'Search for help' }).fill('proration');
    await expect(questions.locator('summary')).toHaveCount(1);
    // The count beside the search waits for the questions, then counts them.
    await expect(page.getByTestId('search-results')).toHaveText('1 matching answer in the FAQ below');
    await page.getByRole('button', { name: 'Start Chat' }).click();
    await expect(page.getByLabel('Subject')).toHaveValue('Live chat request');
    await expect(page.getByTestId('overall-status')).toBeVisible();

    await page.getByRole('link', { name: 'All ways to reach us' }).click();
    await expect(page).toHaveURL(/\/support\/contact$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contact Support');
    await page.getByRole('button', { name: 'Submit Ticket' }).click();
    await expect(page.getByText(TICKET_MESSAGES.nameRequired)).toBeVisible();
    await expect(page.getByLabel('Name', { exact: true })).toBeFocused();
  });

  test('the community page is a real page', async ({ page }) => {
    await page.goto('/support/community');
    await waitForHydration(page);
    await expect(page.getByRole('heading', { name: 'Popular recipes' })).toBeVisible();
    await page.getByRole('link', { name: /A fallback chain across providers/ }).click();
    await expect(page).toHaveURL(/\/docs\/best-practices#routing-policies$/);
  });
});
