import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import { routedPath } from '../lib/request-path.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The refusal of a request no route serves: 405 with `Allow` when the path is served with
     * other methods, else 404. Also used by the web app's catch-all `GET /*`, which would
     * otherwise answer (with a 404) every GET to a path that only takes POST.
     */
    unrouted(request: FastifyRequest, reply: FastifyReply): AppError;
  }
}

interface RouteMethods {
  pattern: RegExp;
  methods: Set<string>;
}

/** `/v1/models/:id` as a pattern of whole segments (parameters match one segment each). */
function patternOf(url: string): RegExp {
  const source = url
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/**
 * Unknown paths answer 404; a known path asked with a method it does not serve answers 405 with
 * an `Allow` header (RFC 9110), e.g. `GET /v1/chat/completions`. Catch-all routes (the web app's
 * `GET /*`) are not counted as serving every path. Must be registered before the routes.
 */
export function registerNotFound(app: FastifyInstance): void {
  const routes = new Map<string, RouteMethods>();
  app.addHook('onRoute', (route) => {
    if (route.url.includes('*')) return;
    let entry = routes.get(route.url);
    if (!entry) {
      entry = { pattern: patternOf(route.url), methods: new Set() };
      routes.set(route.url, entry);
    }
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) entry.methods.add(method);
    if (entry.methods.has('GET')) entry.methods.add('HEAD');
  });
  app.decorate('unrouted', (request: FastifyRequest, reply: FastifyReply): AppError => {
    const path = routedPath(request.url) ?? request.url.split('?')[0] ?? '/';
    const allowed = new Set<string>();
    for (const { pattern, methods } of routes.values()) if (pattern.test(path)) for (const method of methods) allowed.add(method);
    if (allowed.size === 0 || allowed.has(request.method)) return new AppError('not_found', `No route for ${request.method} ${path}`);
    const list = [...allowed].sort();
    reply.header('allow', list.join(', '));
    return new AppError('method_not_allowed', `${request.method} is not allowed on ${path}: use ${list.join(' or ')}.`);
  });
  app.setNotFoundHandler((request, reply) => {
    throw app.unrouted(request, reply);
  });
}
