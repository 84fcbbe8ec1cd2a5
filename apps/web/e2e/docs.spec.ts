import { TIMEOUTS_MS } from '@conductor/shared';
import type { Page } from '@playwright/test';
import { DOCS_SECTIONS } from '../src/config/docs';
import { expect, test, waitForHandlers, waitForHydration } from './fixtures';
import { horizontalOverflow } from './public-helpers';

const ENTRIES = DOCS_SECTIONS.flatMap((group) => group.items.map((item) => ({ ...item, group: group.group })));
const hrefOf = (slug: string) => (slug === 'introduction' ? '/docs' : `/docs/${slug}`);

/** The side navigation; on a narrow screen it sits closed behind the "Docs menu" button, which this opens. */
async function openDocsNav(page: Page) {
  const nav = page.getByRole('navigation', { name: 'Documentation' });
  const toggle = nav.getByRole('button', { name: /^Docs menu/ });
  if (await toggle.isVisible()) {
    await waitForHandlers(toggle);
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  }
  return nav;
}

test.describe('docs entries', () => {
  for (const entry of ENTRIES) {
    test(`${entry.title} renders its own content`, async ({ page }) => {
      const response = await page.goto(hrefOf(entry.slug));
      expect(response?.status()).toBe(200);
      await waitForHydration(page);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(entry.title);
      const article = page.locator(`article[data-docs-section="${entry.slug}"]`);
      await expect(article).toBeVisible();
      // Real content: several sections of prose, not a placeholder line.
      expect(await article.locator('.docs-prose h2').count()).toBeGreaterThanOrEqual(2);
      expect(((await article.locator('.docs-prose').textContent()) ?? '').length).toBeGreaterThan(1200);
      const nav = await openDocsNav(page);
      await expect(nav.getByRole('link', { name: entry.title, exact: true })).toHaveAttribute('aria-current', 'page');
      await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
    });
  }

  test('each entry has different content', async ({ page }) => {
    const firstHeadings = new Set<string>();
    for (const entry of ENTRIES) {
      await page.goto(hrefOf(entry.slug));
      const text = (await page.locator('.docs-prose').first().textContent()) ?? '';
      firstHeadings.add(text.slice(0, 200));
    }
    expect(firstHeadings.size).toBe(ENTRIES.length);
  });

  test('the spec links resolve to real sections', async ({ page }) => {
    const links: [string, string][] = [
      ['/docs/models', 'Models'],
      ['/docs/streaming', 'Chat'],
      ['/docs/webhooks', 'Webhooks'],
      ['/docs/best-practices', 'Best Practices'],
      ['/docs/api-reference', 'API Reference'],
      ['/docs/api', 'API Reference'],
    ];
    for (const [path, heading] of links) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await expect(page.getByRole('heading', { level: 1 }), path).toHaveText(heading);
    }
    await page.goto('/docs/webhooks');
    await expect(page.locator('.docs-prose')).toContainText('Conductor has no webhooks today.');
  });

  test('an unknown section shows the introduction, also after client-side navigation', async ({ page }) => {
    await page.goto('/docs/definitely-not-a-section');
    await waitForHydration(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Introduction');
    await expect(page.locator('.docs-prose')).toContainText('Conductor is an LLM gateway');
    await (await openDocsNav(page)).getByRole('link', { name: 'Rate Limiting' }).click();
    await expect(page).toHaveURL(/\/docs\/rate-limiting$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Rate Limiting');
    // A deeper unknown path stays in the docs too: the introduction.
    await page.goto('/docs/quick-start/no-such-part');
    await expect(page).toHaveURL(/\/docs$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Introduction');
  });

  test('landmarks and headings: labelled sidebars, no heading before the title, links underlined in the prose', async ({ page }) => {
    await page.goto('/docs/best-practices');
    await waitForHydration(page);
    await expect(page.getByRole('complementary', { name: 'Docs navigation' })).toHaveCount(1);
    const firstHeading = page.getByRole('heading').first();
    await expect(firstHeading).toHaveText('Best Practices');
    const link = page.locator('.docs-prose a:not(.docs-anchor)').first();
    expect(await link.evaluate((element) => getComputedStyle(element).textDecorationLine)).toContain('underline');
  });

  test('the docs are prerendered: readable and highlighted without JavaScript', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/docs/quick-start');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Quick Start');
    await expect(page.locator('.docs-code pre.shiki').first()).toBeVisible();
    expect(await page.locator('.docs-code pre.shiki span[style*="--shiki-light"]').count()).toBeGreaterThan(10);
    await page.goto('/docs/api');
    await expect(page.getByRole('heading', { level: 3, name: 'Create a chat completion' })).toBeVisible();
    await context.close();
  });

  test('no highlighter or Markdown parser is shipped to the browser', async ({ page }) => {
    const scripts: string[] = [];
    page.on('response', async (response) => {
      if (response.request().resourceType() === 'script') scripts.push(await response.text());
    });
    await page.goto('/docs/chat');
    await waitForHydration(page);
    expect(scripts.length).toBeGreaterThan(0);
    for (const source of scripts) {
      expect(source).not.toContain('createHighlighter');
      expect(source).not.toContain('vscode-textmate');
    }
  });
});

test.describe('docs tools', () => {
  test('the copy button copies the code and shows its confirmation for two seconds', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/docs/authentication');
    await waitForHydration(page);
    const block = page.getByTestId('code-block').first();
    const button = block.getByRole('button', { name: 'Copy code' });
    // The page records when the label changes, so a busy test runner's own latency does not count.
    await button.evaluate((element) => {
      const changes: Array<{ label: string | null; at: number }> = [];
      (window as unknown as { copyLabelChanges: typeof changes }).copyLabelChanges = changes;
      new MutationObserver(() => changes.push({ label: element.getAttribute('aria-label'), at: performance.now() })).observe(element, {
        attributes: true,
        attributeFilter: ['aria-label'],
      });
    });
    await button.click();
    await expect(block.getByRole('button', { name: 'Copied' })).toHaveText('Copied!');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain('curl https://conductor.dev/v1/models');
    await expect(block.getByRole('button', { name: 'Copy code' })).toHaveText('Copy', { timeout: TIMEOUTS_MS.copyConfirmation + 3_000 });
    const changes = await page.evaluate(
      () => (window as unknown as { copyLabelChanges: Array<{ label: string | null; at: number }> }).copyLabelChanges,
    );
    expect(changes.map((change) => change.label)).toEqual(['Copied', 'Copy code']);
    const at = (index: number) => changes[index]?.at ?? Number.NaN;
    expect(at(1) - at(0)).toBeGreaterThanOrEqual(TIMEOUTS_MS.copyConfirmation - 50);
  });

  test('language tabs switch the example, and the choice applies to every block', async ({ page }) => {
    await page.goto('/docs/quick-start');
    await waitForHydration(page);
    const firstRequest = page
      .getByTestId('code-block')
      .filter({ has: page.getByRole('tab', { name: 'Python' }) })
      .first();
    await expect(firstRequest.getByRole('tab', { name: 'JavaScript' })).toHaveAttribute('aria-selected', 'true');
    await expect(firstRequest.locator('.docs-code:visible')).toContainText('new OpenAI');
    await firstRequest.getByRole('tab', { name: 'Python' }).click();
    await expect(firstRequest.locator('.docs-code:visible')).toContainText('from openai import OpenAI');
    await page.goto('/docs/chat');
    await waitForHydration(page);
    const chatBlock = page
      .getByTestId('code-block')
      .filter({ has: page.getByRole('tab', { name: 'Python' }) })
      .first();
    await expect(chatBlock.getByRole('tab', { name: 'Python' })).toHaveAttribute('aria-selected', 'true');
  });

  test('the search box finds a section by a heading and opens it', async ({ page }) => {
    await page.goto('/docs');
    await waitForHydration(page);
    const search = page.getByRole('combobox', { name: 'Search documentation' });
    // Typed before hydration, the text would stay in the prerendered box with no search behind it.
    await waitForHandlers(search);
    const results = page.getByRole('listbox', { name: 'Search results' });
    await search.fill('retrying');
    await expect(results.getByRole('option').first()).toContainText('Retrying well');
    await search.press('Enter');
    await expect(page).toHaveURL(/\/docs\/error-handling#retrying-well$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Error Handling');

    await search.fill('webhook');
    await results
      .getByRole('option', { name: /Webhooks/ })
      .first()
      .click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Webhooks');

    await search.fill('zzzz-nothing-matches');
    await expect(page.getByText('No results found')).toBeVisible();
  });

  test('the search takes over the box with its text and focus, before another key can arrive', async ({ page }) => {
    await page.goto('/docs');
    await waitForHydration(page);
    const box = page.getByRole('combobox', { name: 'Search documentation' });
    await waitForHandlers(box);
    // Observed in the page, in the microtask right after the search replaces the box: a key
    // pressed then goes wherever the focus is.
    const handedOver = await box.evaluate(
      (element: HTMLInputElement) =>
        new Promise<{ focused: boolean; value: string }>((resolve) => {
          const parent = element.parentElement as HTMLElement;
          new MutationObserver((_, observer) => {
            if (parent.contains(element)) return;
            observer.disconnect();
            const search = parent.querySelector('input') as HTMLInputElement;
            resolve({ focused: document.activeElement === search, value: search.value });
          }).observe(parent, { childList: true, subtree: true });
          element.focus();
          element.value = 'retr';
          element.dispatchEvent(new Event('input', { bubbles: true }));
        }),
    );
    expect(handedOver).toEqual({ focused: true, value: 'retr' });
    await page.keyboard.type('ying');
    await expect(box).toHaveValue('retrying');
    await expect(page.getByRole('listbox', { name: 'Search results' }).getByRole('option').first()).toContainText('Retrying well');
  });

  test('previous and next links walk the side navigation in order', async ({ page }) => {
    await page.goto('/docs/quick-start');
    await waitForHydration(page);
    const pager = page.getByRole('navigation', { name: 'Previous and next' });
    await expect(pager.getByRole('link', { name: /Previous\s*Introduction/ })).toHaveAttribute('href', '/docs');
    await pager.getByRole('link', { name: /Next\s*Authentication/ }).click();
    await expect(page).toHaveURL(/\/docs\/authentication$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Authentication');
  });

  test('long pages have a table of contents on wide screens', async ({ page, viewport }) => {
    await page.goto('/docs/best-practices');
    await waitForHydration(page);
    const toc = page.getByRole('navigation', { name: 'On this page' });
    if ((viewport?.width ?? 1280) >= 1280) {
      await expect(toc.getByRole('link', { name: 'Routing policies' })).toHaveAttribute('href', '#routing-policies');
      await toc.getByRole('link', { name: 'Bring your own keys' }).click();
      await expect(page).toHaveURL(/#bring-your-own-keys$/);
    } else {
      // Narrow screens keep the column for the text; the headings stay reachable through the search.
      await expect(toc).toBeHidden();
    }
  });

  test('wide tables are tables on a wide screen and one card per row on a phone', async ({ page, viewport }) => {
    await page.goto('/docs/error-handling');
    await waitForHydration(page);
    const table = page.locator('.docs-table-stack').filter({ hasText: 'rate_limit_exceeded' });
    await expect(table).toHaveCount(1);
    // A table for assistive technology either way: its roles are explicit.
    await expect(table.getByRole('columnheader', { name: 'Status' })).toHaveCount(1);
    const row = table.getByRole('row').filter({ hasText: 'rate_limit_exceeded' });
    await expect(row.getByRole('cell').first()).toHaveText('429');
    const frame = await table.evaluate((element) => ({ scroll: element.scrollWidth - element.clientWidth }));
    const header = table.locator('thead');
    const label = await row
      .getByRole('cell')
      .first()
      .evaluate((cell) => getComputedStyle(cell, '::before').content);
    if ((viewport?.width ?? 1280) < 640) {
      // Each value under its column's name; nothing scrolls sideways, the table or the page.
      expect(label).toBe('"Status"');
      await expect(header).not.toBeInViewport();
      expect(frame.scroll).toBeLessThanOrEqual(0);
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0);
      const [status, type] = await row
        .getByRole('cell')
        .evaluateAll((cells) => cells.slice(0, 2).map((cell) => cell.getBoundingClientRect()));
      // Stacked: the type sits below the status, not beside it.
      expect(type?.top ?? 0).toBeGreaterThanOrEqual((status?.bottom ?? 0) - 1);
    } else {
      expect(label).toBe('none');
      await expect(header).toBeVisible();
    }
  });

  test('every table fits the docs column: nothing is cut off or scrolls sideways', async ({ page }) => {
    // A dozen page loads in one test: on a loaded machine they take longer than one test's usual time.
    test.slow();
    let tables = 0;
    // Every guide, and the API reference page with its field tables (reached through the `api` alias).
    for (const entry of [...ENTRIES, { slug: 'api', title: 'API Reference' }]) {
      await page.goto(hrefOf(entry.slug));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(entry.title);
      const frames = page.locator('article .docs-table');
      const overflows = await frames.evaluateAll((elements) => elements.map((element) => element.scrollWidth - element.clientWidth));
      tables += overflows.length;
      overflows.forEach((overflow, index) => {
        expect(overflow, `${entry.slug}: table ${index + 1} is ${overflow}px wider than its frame`).toBeLessThanOrEqual(0);
      });
      if (entry.slug === 'api') expect(overflows.length, 'the API reference has field tables').toBeGreaterThanOrEqual(3);
      // Nor does the page: on a phone a card's long field name and its badges stay inside it.
      expect(await horizontalOverflow(page), `${entry.slug}: the page scrolls sideways`).toBeLessThanOrEqual(0);
    }
    expect(tables).toBeGreaterThanOrEqual(15);
  });

  test('the API reference is rendered from the OpenAPI document', async ({ page, request }) => {
    const document = await (await request.get('/v1/openapi.json')).json();
    await page.goto('/docs/api');
    await waitForHydration(page);
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, { summary: string }>>)) {
      for (const [method, operation] of Object.entries(item)) {
        const section = page
          .locator('section')
          .filter({ has: page.getByRole('heading', { level: 3, name: operation.summary, exact: true }) });
        await expect(section.getByText(path, { exact: true }).first(), `${method} ${path}`).toBeVisible();
        await expect(section.getByText(method.toUpperCase(), { exact: true }).first()).toBeVisible();
      }
    }
    const chat = page.locator('section#post-v1-chat-completions');
    // On a phone each cell is announced with its column's name, as the card shows it.
    await expect(chat.getByRole('cell', { name: /^(Name\s*)?model required$/ })).toBeVisible();
    await expect(chat.getByText('API key required')).toBeVisible();
    await expect(chat.getByText('"object": "chat.completion"')).toBeVisible();
  });

  test('the API reference keeps its behaviour: copy buttons, client-side navigation, the OpenAPI document', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/docs/api');
    await waitForHydration(page);
    const chat = page.locator('section#post-v1-chat-completions');
    const block = chat.getByTestId('code-block').first();
    await block.getByRole('button', { name: 'Copy code' }).click();
    await expect(block.getByRole('button', { name: 'Copied' })).toHaveText('Copied!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('/v1/chat/completions');

    // Another section, then back to the reference without a page load.
    await (await openDocsNav(page)).getByRole('link', { name: 'Models' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Models');
    await (await openDocsNav(page)).getByRole('link', { name: 'All endpoints' }).click();
    await expect(page).toHaveURL(/\/docs\/api$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('API Reference');
    await expect(page.getByRole('heading', { level: 3, name: 'Create a chat completion' })).toBeVisible();
    await expect(chat.getByText('API key required')).toBeVisible();

    // The document the reference is generated from is the server's: the link loads it (here a stand-in page, which
    // has an icon where the browser would otherwise ask for /favicon.ico), not an app route.
    await page.route('**/v1/openapi.json', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><link rel="icon" href="data:,"><title>OpenAPI document</title>' }),
    );
    const loaded = page.waitForRequest((request) => request.url().endsWith('/v1/openapi.json') && request.isNavigationRequest());
    await page.getByRole('link', { name: '/v1/openapi.json' }).click();
    await loaded;
    await expect(page).toHaveTitle('OpenAPI document');
  });
});
