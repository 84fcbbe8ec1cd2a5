import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { parseAnswer, readJson } from './http.ts';

/** The parts of an OpenID Provider's metadata the relying party uses. */
export const DiscoveryDocument = z.object({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
});
export type DiscoveryDocument = z.infer<typeof DiscoveryDocument>;

/** Microsoft's multi-tenant metadata names its issuer with this placeholder for the token's `tid`. */
export const TENANT_PLACEHOLDER = '{tenantid}';
const CACHE_MS = 60 * 60 * 1000;

export interface Discovery {
  get(issuer: string, options: { fetch: typeof fetch; multiTenant: boolean; now: number }): Promise<DiscoveryDocument>;
}

/**
 * OpenID Connect Discovery 1.0 (section 4), cached an hour per issuer. The document must name
 * the issuer it was fetched from; a multi-tenant issuer (Microsoft `common`) names a template.
 */
export function createDiscovery(): Discovery {
  const cache = new Map<string, { document: DiscoveryDocument; fetchedAt: number }>();
  return {
    async get(issuer, options) {
      const cached = cache.get(issuer);
      if (cached && options.now - cached.fetchedAt < CACHE_MS) return cached.document;
      const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
      const what = 'the provider metadata';
      const document = parseAnswer(DiscoveryDocument, await readJson(options.fetch, url, { method: 'GET' }, what), what);
      const matches =
        document.issuer === issuer ||
        (options.multiTenant && document.issuer.includes(TENANT_PLACEHOLDER) && sameHost(document.issuer, issuer));
      if (!matches) throw new AppError('bad_request', 'The sign-in provider answered with metadata for another issuer.');
      cache.set(issuer, { document, fetchedAt: options.now });
      return document;
    },
  };
}

function sameHost(a: string, b: string): boolean {
  try {
    return new URL(a.replace(TENANT_PLACEHOLDER, 'tenant')).host === new URL(b).host;
  } catch {
    return false;
  }
}
