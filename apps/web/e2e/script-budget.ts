import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { waitForHydration } from './fixtures';

/** The web budgets of docs/benchmarks.md (checked with Lighthouse by `npm run bench:web`). */
export const SCRIPT_BUDGET_KB = { publicPage: 120, dashboardFirstView: 250 } as const;

/**
 * The public pages held to the public budget: the benchmark's four, and every other public
 * page that fits (`/` in SITE_MODE=waitlist is checked on the waitlist server). The generated
 * API reference (`/docs/api`) keeps its prerendered HTML like a docs section; `/support` and
 * `/support/contact` keep their text, and their ticket form until it is first used.
 */
export const PUBLIC_PAGES_ON_BUDGET = [
  '/',
  '/pricing',
  '/docs/quick-start',
  '/login',
  '/home',
  '/about',
  '/status',
  '/docs',
  '/support/community',
  '/register',
  '/forgot-password',
  '/contact',
  '/docs/api',
  '/support',
  '/support/contact',
] as const;

const clientDir = process.env.WEB_DIST_DIR ?? path.resolve(import.meta.dirname, '../build/client');

/**
 * Opens `pathname`, waits until it has hydrated and the network is idle, and returns the
 * scripts it loaded with the gzip size (KB) of each, read from the build as bench:web does.
 */
export async function loadedScripts(page: Page, pathname: string): Promise<{ total: number; files: string[]; libraries: string[] }> {
  const files = new Set<string>();
  const onRequest = (request: { resourceType(): string; url(): string }) => {
    if (request.resourceType() === 'script') files.add(new URL(request.url()).pathname);
  };
  page.on('request', onRequest);
  await page.goto(pathname);
  await waitForHydration(page);
  await page.waitForTimeout(500);
  await page.waitForLoadState('networkidle');
  page.off('request', onRequest);
  let bytes = 0;
  const libraries = new Set<string>();
  for (const file of files) {
    const onDisk = path.join(clientDir, file);
    if (!existsSync(onDisk)) continue;
    const source = readFileSync(onDisk);
    bytes += gzipSync(source, { level: 9 }).length;
    const text = source.toString('utf8');
    for (const [library, marker] of Object.entries(LIBRARY_MARKERS)) if (text.includes(marker)) libraries.add(library);
  }
  return { total: Math.round((bytes / 1024) * 10) / 10, files: [...files], libraries: [...libraries] };
}

/** Strings only these libraries' code contains, to tell which ones a page loaded. */
const LIBRARY_MARKERS = {
  sonner: 'data-sonner-toaster',
  'tanstack-query': 'No QueryClient set',
  zod: 'ZodError',
  recharts: 'recharts-wrapper',
} as const;
