import { test as base, expect, type Locator, type Page } from '@playwright/test';

/** Every page test fails on a console error or an uncaught exception. */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await use(errors);
      expect(errors, 'console errors').toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

/**
 * Waits until React has hydrated the page: the route modules are in, React owns the page's outer
 * element (React keeps its fiber on every node it hydrates, and completes a parent after its
 * children) and the network is idle.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as unknown as { __reactRouterRouteModules?: object }).__reactRouterRouteModules !== undefined);
  await page.waitForFunction(() => {
    const shell = [...document.body.children].find((element) => element.tagName !== 'SCRIPT');
    return shell !== undefined && Object.keys(shell).some((key) => key.startsWith('__reactFiber$'));
  });
  await page.waitForLoadState('networkidle');
}

/** Waits until React has attached its event handlers to this element (it hydrated). */
export async function waitForHandlers(locator: Locator): Promise<void> {
  await expect.poll(() => locator.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactProps$')))).toBe(true);
}
