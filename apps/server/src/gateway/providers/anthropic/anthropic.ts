import type { ProviderAdapter } from '../types.ts';
import { mapAnthropicError } from './errors.ts';
import { buildAnthropicRequest } from './request.ts';
import { parseAnthropicMessage } from './response.ts';
import { createAnthropicStreamParser } from './stream.ts';

/**
 * Anthropic Messages API: `POST {base}/v1/messages` with `x-api-key` and `anthropic-version`.
 * https://docs.anthropic.com/en/api/messages
 */
export const anthropicAdapter: ProviderAdapter = {
  id: 'anthropic',
  defaultBaseUrl: 'https://api.anthropic.com',
  allowedHostSuffixes: ['api.anthropic.com'],
  buildRequest: buildAnthropicRequest,
  parseResponse: parseAnthropicMessage,
  createStreamParser: createAnthropicStreamParser,
  mapError: (status, body, headers, context) => mapAnthropicError(status, body, headers, context?.now),
};
