import { signInAsDemo } from './dashboard-helpers';
import { expect, test, waitForHydration } from './fixtures';
import { WAITLIST_BASE_URL } from '../playwright.config';
import { loadedScripts, PUBLIC_PAGES_ON_BUDGET, SCRIPT_BUDGET_KB } from './script-budget';

/** Every public route of the spec's table, with the heading it must show. */
const PUBLIC_ROUTES: { path: string; heading: RegExp }[] = [
  { path: '/', heading: /One API for every LLM/ },
  { path: '/home', heading: /One API for every LLM/ },
  { path: '/pricing', heading: /Simple, transparent pricing/ },
  { path: '/status', heading: /System Status/ },
  { path: '/about', heading: /About Conductor/ },
  { path: '/blog', heading: /Blog/ },
  { path: '/careers', heading: /Careers/ },
  { path: '/press', heading: /Press/ },
  { path: '/contact', heading: /Contact Us/ },
  { path: '/privacy', heading: /Privacy Policy/ },
  { path: '/terms', heading: /Terms of Service/ },
  { path: '/cookies', heading: /Cookie Policy/ },
  { path: '/gdpr', heading: /GDPR/ },
  { path: '/docs', heading: /Introduction/ },
  { path: '/docs/quick-start', heading: /Quick Start/ },
  { path: '/docs/api', heading: /API Reference/ },
  { path: '/support', heading: /How can we help/ },
  { path: '/support/community', heading: /Community/ },
  { path: '/support/contact', heading: /Contact Support/ },
  { path: '/login', heading: /Welcome back/ },
  { path: '/register', heading: /Create your account/ },
  { path: '/forgot-password', heading: /Reset your password/ },
  { path: '/auth/callback', heading: /./ },
];

test.describe('route table', () => {
  for (const route of PUBLIC_ROUTES) {
    test(`${route.path} renders its page`, async ({ page }) => {
      const response = await page.goto(route.path);
      expect(response?.status()).toBe(200);
      await waitForHydration(page);
      await expect(page.getByRole('heading', { level: 1 }).first()).toHaveText(route.heading);
      await expect(page).toHaveTitle(/Conductor/);
    });
  }

  test('unknown paths redirect to /', async ({ page }) => {
    for (const path of ['/no/such/page', '/pricing.html']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(/One API for every LLM/);
    }
  });

  test('an unknown docs section shows the introduction', async ({ page }) => {
    await page.goto('/docs/no-such-section');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Introduction');
    await expect(page.getByRole('link', { name: 'Introduction' })).toHaveAttribute('aria-current', 'page');
  });

  for (const path of [
    '/dashboard',
    '/dashboard/usage',
    '/dashboard/keys',
    '/dashboard/billing',
    '/dashboard/settings',
    '/onboarding',
    '/portal',
  ]) {
    test(`${path} sends a visitor to /login`, async ({ page }) => {
      await page.goto(path);
      // A dashboard page other than the overview is named, so the sign-in can return to it.
      if (path.startsWith('/dashboard/')) await expect(page).toHaveURL(`/login?next=${encodeURIComponent(path)}`);
      else await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Welcome back/);
    });
  }
});

test.describe('header and footer', () => {
  test('header links and signed-out actions', async ({ page, isMobile, viewport }) => {
    await page.goto('/pricing');
    await waitForHydration(page);
    const narrow = (viewport?.width ?? 1280) < 768 || isMobile;
    if (narrow) {
      await page.getByRole('button', { name: 'Open menu' }).click();
      const menu = page.getByRole('navigation', { name: 'Mobile' });
      await expect(menu.getByRole('link', { name: 'Documentation' })).toBeVisible();
      await expect(menu.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/register');
      await page.getByRole('button', { name: 'Close menu' }).click();
      await expect(menu).toBeHidden();
      // Escape closes it and gives focus back to the button; so does a press outside it.
      await page.getByRole('button', { name: 'Open menu' }).click();
      await expect(menu).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
      await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
      await page.getByRole('button', { name: 'Open menu' }).click();
      await expect(menu).toBeVisible();
      const { height } = page.viewportSize() ?? { height: 700 };
      await page.mouse.click(20, height - 20);
      await expect(menu).toBeHidden();
    } else {
      const nav = page.getByRole('navigation', { name: 'Main' });
      for (const label of ['Home', 'Pricing', 'Documentation', 'Support'])
        await expect(nav.getByRole('link', { name: label })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
      await expect(page.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/register');
    }
    const footer = page.getByRole('contentinfo');
    for (const column of ['Product', 'Support', 'Company', 'Legal'])
      await expect(footer.getByRole('heading', { name: column })).toBeVisible();
    await expect(footer.getByRole('heading', { name: 'Stay updated' })).toBeVisible();
    await expect(footer.getByRole('button', { name: 'Subscribe' })).toBeVisible();
    await expect(footer.getByText(/© \d{4} Conductor/)).toBeVisible();
  });

  test('the page never scrolls sideways', async ({ page }) => {
    for (const path of ['/', '/pricing', '/docs', '/support', '/login']) {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });
});

test.describe('prerendering and code splitting', () => {
  test('public pages are readable with JavaScript off', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 }).first()).toHaveText(/One API for every LLM/);
    await page.goto('/pricing');
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /pricing/i);
    await context.close();
  });

  test('the home page does not download dashboard code', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.goto('/');
    await waitForHydration(page);
    expect(scripts.length).toBeGreaterThan(0);
    // The route modules of the dashboard and onboarding, as the build's own manifest names them.
    const privateModules = await page.evaluate(() => {
      const manifest = (window as unknown as { __reactRouterManifest: { routes: Record<string, { module: string }> } })
        .__reactRouterManifest;
      return Object.entries(manifest.routes)
        .filter(([id]) => id.startsWith('routes/dashboard/') || id.startsWith('routes/onboarding/'))
        .map(([, route]) => route.module);
    });
    expect(privateModules.length).toBeGreaterThanOrEqual(6);
    const requested = scripts.map((url) => new URL(url).pathname);
    expect(requested.filter((path) => privateModules.includes(path) || /recharts/i.test(path))).toEqual([]);
  });

  test('public pages stay within their JavaScript budget and never load the toaster, zod or TanStack Query', async ({ page }) => {
    test.setTimeout(120_000);
    for (const pathname of [...PUBLIC_PAGES_ON_BUDGET, `${WAITLIST_BASE_URL}/`]) {
      const { total, files, libraries } = await loadedScripts(page, pathname);
      expect(total, `${pathname}: ${files.join(' ')}`).toBeLessThanOrEqual(SCRIPT_BUDGET_KB.publicPage);
      expect(libraries, pathname).toEqual([]);
    }
  });

  test('the dashboard on a phone shows its first view without the chart library', async ({ page }) => {
    await signInAsDemo(page);
    await page.setViewportSize({ width: 412, height: 823 });
    const { total, files, libraries } = await loadedScripts(page, '/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Welcome back, Demo' })).toBeVisible();
    expect(total, files.join(' ')).toBeLessThanOrEqual(SCRIPT_BUDGET_KB.dashboardFirstView);
    expect(libraries).not.toContain('recharts');
    // Scrolled into view, the chart loads.
    await page.getByTestId('range-summary').scrollIntoViewIfNeeded();
    await expect(page.locator('.recharts-surface').first()).toBeVisible();
  });

  test('pages are served under a strict Content-Security-Policy and still hydrate', async ({ page, request }) => {
    const response = await request.get('/pricing');
    const policy = response.headers()['content-security-policy'] ?? '';
    expect(policy).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/);
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) expect(policy).toContain(directive);
    expect(response.headers()['x-content-type-options']).toBe('nosniff');
    await page.goto('/pricing');
    await waitForHydration(page);
    await page.getByRole('link', { name: 'Documentation' }).first().click();
    await expect(page).toHaveURL(/\/docs$/);
  });

  test('a prerendered page paints before it requests any script, then hydrates', async ({ page }) => {
    await page.goto('/pricing');
    await waitForHydration(page);
    const timing = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
      scripts: performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
        .map((entry) => entry.startTime),
    }));
    expect(timing.paint).toBeGreaterThan(0);
    expect(timing.scripts.length).toBeGreaterThan(3);
    expect(Math.min(...timing.scripts)).toBeGreaterThanOrEqual(timing.paint);
    // Hydrated: client-side navigation works.
    await page.getByRole('link', { name: 'Documentation' }).first().click();
    await expect(page).toHaveURL(/\/docs$/);
  });

  test('sitemap.xml and robots.txt are served', async ({ request }) => {
    const sitemap = await request.get('/sitemap.xml');
    expect(sitemap.status()).toBe(200);
    expect(await sitemap.text()).toContain('/pricing</loc>');
    const robots = await request.get('/robots.txt');
    expect(await robots.text()).toContain('Sitemap:');
  });
});
