import type { ProviderAdapter } from '../types.ts';
import { mapCohereError } from './errors.ts';
import { buildCohereRequest } from './request.ts';
import { parseCohereResponse } from './response.ts';
import { createCohereStreamParser } from './stream.ts';

/** Cohere Chat API v2 (`/v2/chat`). https://docs.cohere.com/reference/chat */
export const cohereAdapter: ProviderAdapter = {
  id: 'cohere',
  defaultBaseUrl: 'https://api.cohere.com',
  allowedHostSuffixes: ['api.cohere.com', 'api.cohere.ai'],
  buildRequest: buildCohereRequest,
  parseResponse: parseCohereResponse,
  createStreamParser: createCohereStreamParser,
  mapError: (status, body, headers, context) => mapCohereError(status, body, headers, context?.now),
};
