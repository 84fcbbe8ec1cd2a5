import type { ProviderAdapter } from '../types.ts';
import { mapGeminiError } from './errors.ts';
import { buildGeminiRequest } from './request.ts';
import { parseGeminiResponse } from './response.ts';
import { createGeminiStreamParser } from './stream.ts';

/**
 * Google Gemini API (generateContent / streamGenerateContent), authenticated by `x-goog-api-key`.
 * https://ai.google.dev/api/generate-content
 */
export const googleAdapter: ProviderAdapter = {
  id: 'google',
  defaultBaseUrl: 'https://generativelanguage.googleapis.com',
  allowedHostSuffixes: ['generativelanguage.googleapis.com'],
  buildRequest: buildGeminiRequest,
  parseResponse: parseGeminiResponse,
  createStreamParser: createGeminiStreamParser,
  mapError: (status, body, headers, context) => mapGeminiError(status, body, headers, context?.now),
};
