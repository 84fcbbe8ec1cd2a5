import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { MALFORMED_URL } from './error-handler.ts';
import { withWaitlistMeta } from '../modules/public-site/landing-meta.ts';
import { contentSecurityPolicyFor } from './security-headers.ts';

const API_PREFIXES = ['/api/', '/v1/', '/oidc/'];
const SPA_FALLBACK = '__spa-fallback.html';

export interface WebOptions {
  distDir: string;
  siteMode: 'home' | 'waitlist';
}

/**
 * Serves the built SPA: prerendered pages as their own HTML, hashed assets with long
 * caching, the SPA fallback for client-only routes, and a 404 for unknown files and APIs.
 */
export async function registerWeb(app: FastifyInstance, options: WebOptions): Promise<void> {
  const root = path.resolve(options.distDir);
  if (!existsSync(path.join(root, SPA_FALLBACK)) && !existsSync(path.join(root, 'index.html'))) {
    app.log.warn({ root }, 'web build not found; only the APIs are served (run `npm run build`)');
    return;
  }
  interface HtmlPage {
    html: string;
    csp: string;
    gzip: Buffer;
    brotli: Buffer;
  }
  const htmlCache = new Map<string, HtmlPage>();
  const readHtml = (file: string): HtmlPage => {
    let page = htmlCache.get(file);
    if (page === undefined) {
      let html = readFileSync(file, 'utf8').replace('<html lang="en"', `<html lang="en" data-site-mode="${options.siteMode}"`);
      if (options.siteMode === 'waitlist' && file === path.join(root, 'index.html')) html = withWaitlistMeta(html);
      page = { html, csp: contentSecurityPolicyFor(html), gzip: gzipSync(html), brotli: brotliCompressSync(html) };
      htmlCache.set(file, page);
    }
    return page;
  };

  await app.register(fastifyStatic, {
    root,
    serve: false,
    // Assets are compressed at build time (.br/.gz beside each file).
    preCompressed: true,
    setHeaders: (reply: unknown, filePath: string) => {
      const target = reply as FastifyReply;
      if (filePath.includes(`${path.sep}assets${path.sep}`)) {
        target.header('cache-control', 'public, max-age=31536000, immutable');
      } else {
        target.header('cache-control', 'public, max-age=300');
      }
    },
  });

  const sendHtml = (request: FastifyRequest, reply: FastifyReply, file: string, status = 200) => {
    const page = readHtml(file);
    reply
      .status(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('vary', 'accept-encoding')
      .header('content-security-policy', page.csp);
    const accepted = String(request.headers['accept-encoding'] ?? '');
    if (/\bbr\b/.test(accepted)) return reply.header('content-encoding', 'br').send(page.brotli);
    if (/\bgzip\b/.test(accepted)) return reply.header('content-encoding', 'gzip').send(page.gzip);
    return reply.send(page.html);
  };

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = decodedPath(request.url);
    if (API_PREFIXES.some((prefix) => pathname.startsWith(prefix)) || pathname === '/api' || pathname === '/v1') {
      // An API path is never a page: 404, or 405 where it takes other methods (GET /v1/chat/completions).
      throw app.unrouted(request, reply);
    }
    const relative = path.normalize(pathname).replace(/^([/\\])+/, '');
    const target = path.join(root, relative);
    if (!target.startsWith(root)) throw new AppError('not_found', 'Not found');
    const stat = safeStat(target);
    if (stat?.isFile() && !relative.endsWith('.html')) return reply.sendFile(relative);
    const indexFile = path.join(target, 'index.html');
    if (safeStat(indexFile)?.isFile()) return sendHtml(request, reply, indexFile);
    // A missing file is a 404 (a browser asking for an image or a script must not get a page);
    // a missing page, `.html` included, gets the app, which sends unknown paths to /.
    if ((path.extname(relative) !== '' && !PAGE_EXTENSION.test(relative)) || relative.startsWith('assets')) {
      throw new AppError('not_found', 'Not found');
    }
    return sendHtml(request, reply, path.join(root, SPA_FALLBACK));
  };

  app.get('/*', { schema: { hide: true } }, handler);
}

const PAGE_EXTENSION = /\.html?$/i;

/** The request's path, percent-decoded; a malformed escape (`/%`, `/%E0%A4%A`) is the client's error. */
function decodedPath(url: string): string {
  const raw = url.split('?')[0] ?? '/';
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new AppError('bad_request', MALFORMED_URL);
  }
}

function safeStat(file: string) {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}
