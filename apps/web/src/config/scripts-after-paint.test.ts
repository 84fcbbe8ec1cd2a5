// @vitest-environment node
import { describe, expect, it, vi } from 'vitest';
import { loadScriptsAfterFirstPaint } from './scripts-after-paint';

/** The shape React Router 7 prerenders: module preloads in <head>, one inline module bootstrap. */
const PAGE = [
  '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><link rel="stylesheet" href="/assets/root.css"/>',
  '<link rel="modulepreload" href="/assets/manifest-1.js"/><link rel="modulepreload" href="/assets/entry.client-2.js"/>',
  '<link rel="modulepreload" href="/assets/framework-3.js"/><link rel="modulepreload" href="/assets/root-4.js"/>',
  '<link rel="modulepreload" href="/assets/pricing-5.js"/></head><body><h1>Pricing</h1>',
  '<script>window.__reactRouterContext = {};</script>',
  '<script type="module" async="">import "/assets/manifest-1.js";\n',
  'import * as route0 from "/assets/root-4.js";\n',
  'import * as route1 from "/assets/pricing-5.js";\n',
  '  \n  window.__reactRouterRouteModules = {"root":route0,"routes/marketing/pricing":route1};\n\n',
  'import("/assets/entry.client-2.js");</script></body></html>',
].join('');

interface Run {
  imports: string[];
  preloads: string[];
  observe(entries: string[]): void;
  fireTimers(): void;
  window: { __reactRouterRouteModules?: Record<string, unknown> };
  settled(): Promise<void>;
}

/** Runs the rewritten bootstrap with a stand-in browser: `import()` records what it loads. */
function run(html: string, options: { visibility?: string; paintTiming?: boolean; observer?: boolean } = {}): Run {
  const body = /<script type="module" async="">([^<]*)<\/script>/.exec(html)?.[1] ?? '';
  const imports: string[] = [];
  const preloads: string[] = [];
  const timers: (() => void)[] = [];
  let observer: ((list: { getEntriesByName(name: string): unknown[] }) => void) | undefined;
  const pending: Promise<unknown>[] = [];
  const window: Run['window'] = {};
  const load = (url: string) => {
    imports.push(url);
    const loaded = Promise.resolve({ url });
    pending.push(loaded);
    return loaded;
  };
  class PerformanceObserver {
    static supportedEntryTypes = options.paintTiming === false ? ['navigation'] : ['paint', 'navigation'];
    constructor(callback: typeof observer) {
      observer = callback;
    }
    observe = vi.fn();
    disconnect = () => {
      observer = undefined;
    };
  }
  const document = {
    visibilityState: options.visibility ?? 'visible',
    createElement: () => ({ rel: '', href: '' }),
    head: { append: (link: { rel: string; href: string }) => link.rel === 'modulepreload' && preloads.push(link.href) },
  };
  const script = new Function('document', 'window', 'PerformanceObserver', 'setTimeout', 'load', body.replaceAll('import(', 'load('));
  script(
    document,
    window,
    options.observer === false ? undefined : PerformanceObserver,
    (callback: () => void) => timers.push(callback),
    load,
  );
  return {
    imports,
    preloads,
    window,
    observe: (names) => observer?.({ getEntriesByName: (name) => names.filter((entry) => entry === name) }),
    fireTimers: () => {
      for (const timer of timers.splice(0)) timer();
    },
    settled: async () => {
      for (let round = 0; round < 10; round += 1) await Promise.all(pending);
    },
  };
}

describe('loadScriptsAfterFirstPaint', () => {
  const html = loadScriptsAfterFirstPaint(PAGE);

  it('leaves no script download in the document itself', () => {
    expect(html).not.toContain('<link rel="modulepreload"');
    expect(html).not.toMatch(/^import /m);
    expect(html).toContain('<h1>Pricing</h1>');
    expect(html).toContain('<script>window.__reactRouterContext = {};</script>');
  });

  it('loads nothing before the first contentful paint, then everything in the original order', async () => {
    const page = run(html);
    expect(page.imports).toEqual([]);
    page.observe(['first-paint']);
    expect(page.imports).toEqual([]);
    page.observe(['first-contentful-paint']);
    expect(page.preloads).toEqual([
      '/assets/manifest-1.js',
      '/assets/entry.client-2.js',
      '/assets/framework-3.js',
      '/assets/root-4.js',
      '/assets/pricing-5.js',
    ]);
    await page.settled();
    expect(page.imports).toEqual(['/assets/manifest-1.js', '/assets/root-4.js', '/assets/pricing-5.js', '/assets/entry.client-2.js']);
    expect(page.window.__reactRouterRouteModules).toEqual({
      root: { url: '/assets/root-4.js' },
      'routes/marketing/pricing': { url: '/assets/pricing-5.js' },
    });
    // The fallback timer after a paint does not load anything twice.
    page.fireTimers();
    await page.settled();
    expect(page.imports).toHaveLength(4);
  });

  it('loads at once in a hidden tab or a browser without paint timing', async () => {
    for (const page of [run(html, { visibility: 'hidden' }), run(html, { paintTiming: false }), run(html, { observer: false })]) {
      await page.settled();
      expect(page.imports).toContain('/assets/entry.client-2.js');
    }
  });

  it('loads after 3 s when no paint is reported', async () => {
    const page = run(html);
    page.fireTimers();
    await page.settled();
    expect(page.imports.at(-1)).toBe('/assets/entry.client-2.js');
    page.observe(['first-contentful-paint']);
    await page.settled();
    expect(page.imports).toHaveLength(4);
  });

  it('refuses a bootstrap it does not recognise rather than ship a page that never hydrates', () => {
    expect(() =>
      loadScriptsAfterFirstPaint(PAGE.replace('import("/assets/entry.client-2.js");', 'start();'), 'pricing/index.html'),
    ).toThrow(/pricing\/index.html: unexpected React Router bootstrap/);
  });
});
