import type { Page } from '@playwright/test';

/**
 * Chromium logs every non-2xx response as a console error ("Failed to load resource: the
 * server responded with a status of 409"). Tests that provoke such an answer on purpose
 * drop exactly those lines (by status) and keep every other console error failing the test.
 */
export function allowFailedResources(consoleErrors: string[], statuses: number[]): void {
  const expected = new RegExp(`Failed to load resource: the server responded with a status of (${statuses.join('|')})\\b`);
  const kept = consoleErrors.filter((message) => !expected.test(message));
  consoleErrors.splice(0, consoleErrors.length, ...kept);
}

/** A unique address per test run, so reruns against the same server never collide. */
export function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** The page does not scroll sideways (375 px included). */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}
