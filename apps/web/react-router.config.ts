import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Config } from '@react-router/dev/config';
import { PRERENDERED_PATHS } from './src/config/prerender.ts';
import { loadScriptsAfterFirstPaint } from './src/config/scripts-after-paint.ts';
import { SITE_URL } from './src/config/site.ts';

export default {
  appDirectory: 'src/app',
  // WEB_BUILD_DIR lets parallel work build into its own folder (serve it with WEB_DIST_DIR=<dir>/client).
  buildDirectory: process.env.WEB_BUILD_DIR ?? 'build',
  ssr: false,
  prerender: PRERENDERED_PATHS,
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: false,
  },
  async buildEnd({ reactRouterConfig }) {
    const client = path.join(reactRouterConfig.buildDirectory, 'client');
    const urls = PRERENDERED_PATHS.map((route) => `  <url><loc>${SITE_URL}${route === '/' ? '/' : route}</loc></url>`).join('\n');
    writeFileSync(
      path.join(client, 'sitemap.xml'),
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`,
    );
    writeFileSync(
      path.join(client, 'robots.txt'),
      `User-agent: *\nAllow: /\nDisallow: /dashboard\nDisallow: /onboarding\nDisallow: /api/\nDisallow: /auth/\n\nSitemap: ${SITE_URL}/sitemap.xml\n`,
    );
    prioritiseContent(client);
    trimBrowserManifest(client);
    precompress(client);
  },
} satisfies Config;

/**
 * A prerendered page is readable before any JavaScript runs, so its scripts must not compete
 * with what paints it: the stylesheets move to the top of <head> (React Float puts the module
 * preloads first, and React hydrates <link> tags wherever they are), and the scripts are only
 * requested once the page has painted (`loadScriptsAfterFirstPaint`), so the stylesheet, the
 * font and the document have the connection to themselves. The SPA fallback (client-only
 * routes, which need their scripts to show anything) loads them at once.
 */
function prioritiseContent(directory: string): void {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'assets') prioritiseContent(file);
      continue;
    }
    if (!entry.name.endsWith('.html')) continue;
    let html = readFileSync(file, 'utf8');
    const stylesheets = html.match(/<link rel="stylesheet"[^>]*>/g) ?? [];
    for (const link of stylesheets) html = html.replace(link, '');
    html = html.replace('<meta charSet="utf-8"/>', `<meta charSet="utf-8"/>${stylesheets.join('')}`);
    if (entry.name === 'index.html') html = loadScriptsAfterFirstPaint(html, file);
    writeFileSync(file, html);
  }
}

/**
 * The browser's route manifest (loaded by every page) lists each route's chunks (`imports`)
 * so that `<Link prefetch>` can preload them, which this app does not use: a route's chunks
 * load through the module's own imports, and the prerendered pages carry their preloads in
 * their HTML. Without those lists the manifest is 1.4 KB gzip smaller on every page.
 */
function trimBrowserManifest(directory: string): void {
  const assets = path.join(directory, 'assets');
  for (const name of readdirSync(assets)) {
    if (!/^manifest-[\w-]+\.js$/.test(name)) continue;
    const file = path.join(assets, name);
    const source = readFileSync(file, 'utf8');
    const prefix = 'window.__reactRouterManifest=';
    if (!source.startsWith(prefix)) throw new Error(`${name}: unexpected React Router manifest format`);
    const manifest = JSON.parse(source.slice(prefix.length).replace(/;\s*$/, '')) as { routes: Record<string, { imports?: string[] }> };
    for (const route of Object.values(manifest.routes)) delete route.imports;
    writeFileSync(file, `${prefix}${JSON.stringify(manifest)};`);
  }
}

/** Writes .br and .gz beside every text asset so the server sends them without compressing per request. */
function precompress(directory: string): void {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const file = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      precompress(file);
      continue;
    }
    if (!/\.(js|css|svg|json|xml|txt|map|data)$/.test(entry.name) || statSync(file).size < 1024) continue;
    const content = readFileSync(file);
    writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
  }
}
