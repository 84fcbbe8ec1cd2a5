import { AZURE_ENDPOINT_REFUSED } from '@conductor/shared/schemas/onboarding';
import type { Env } from '../../config/env.ts';
import { getAdapter, validateBaseUrl } from '../../gateway/providers/registry.ts';
import { AppError } from '../../lib/errors.ts';

/** Loopback resources only where tests aim the gateway at fake upstreams (as for the server's own base URLs). */
export const allowsLocalResource = (env: Pick<Env, 'UPSTREAM_ALLOW_LOCAL' | 'NODE_ENV'>): boolean =>
  env.UPSTREAM_ALLOW_LOCAL && env.NODE_ENV === 'test';

/**
 * An account's own Azure OpenAI resource, where its Azure key is sent: checked by the gateway's rule
 * for the server's own (https, Azure's hosts, no credentials or query), so the key is never sent
 * elsewhere. Answers the normalised URL; a refusal is a 400 on `field` (Settings' and onboarding's
 * forms name it differently).
 */
export function checkAzureResource(url: string, allowLocal: boolean, field: string): string {
  const check = validateBaseUrl(getAdapter('azure'), url, allowLocal);
  if (!check.ok) throw new AppError('validation_failed', AZURE_ENDPOINT_REFUSED, { fields: { [field]: AZURE_ENDPOINT_REFUSED } });
  return check.baseUrl;
}
