import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Config } from '@react-router/dev/config';
import { PRERENDERED_PATHS, SITE_URL } from './src/config/site.ts';

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
    precompress(client);
  },
} satisfies Config;

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
