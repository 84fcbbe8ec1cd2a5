import type { RouteOptions } from 'fastify';
import type { ZodType } from 'zod';

export interface CatalogRoute {
  method: string;
  url: string;
  body?: ZodType;
  querystring?: ZodType;
  params?: ZodType;
}

/** Collects every route (with its zod schemas) through `buildApp({ onRoute })`. */
export function routeCatalog(): { routes: CatalogRoute[]; onRoute(route: RouteOptions): void } {
  const routes: CatalogRoute[] = [];
  return {
    routes,
    onRoute(route) {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const schema = (route.schema ?? {}) as { body?: ZodType; querystring?: ZodType; params?: ZodType };
      for (const method of methods) {
        if (method === 'HEAD' || method === 'OPTIONS') continue;
        routes.push({ method, url: route.url, body: schema.body, querystring: schema.querystring, params: schema.params });
      }
    },
  };
}

/** A concrete URL for a route pattern (parameters filled with `value`). */
export function concreteUrl(pattern: string, value = 'x'): string {
  return pattern.replace(/:[^/]+/g, encodeURIComponent(value)).replace(/\*$/, 'anything');
}

/** Top-level keys of a zod object schema (for near-valid hostile bodies). */
export function objectKeys(schema: ZodType | undefined): string[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

export const HOSTILE_STRINGS = [
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '" OR ""="',
  '1; SELECT pg_sleep(5); --',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as these literal characters
  '{{7*7}}${7*7}',
  '../../../../etc/passwd',
  '\u0000\u0001\u0002',
  '\u202e\u200b\ufeff',
  'A'.repeat(100_000),
  '😀'.repeat(1000),
  '%00%2e%2e%2f',
  `cc_live_sk_${'x'.repeat(43)}`,
];
