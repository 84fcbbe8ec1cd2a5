/**
 * Request examples for the API reference page, keyed by `METHOD /path`. The web build sends
 * each one to an in-process server (with a sandbox test key) and shows the real answer as the
 * response example; the docs snippet test sends them to a live server and expects success.
 */
export interface ApiExample {
  /** JSON body for POST endpoints. */
  body?: Record<string, unknown>;
  /** Extra request headers shown in the example (besides Authorization and Content-Type). */
  headers?: Record<string, string>;
  /** Show the captured response (false for very large answers such as the OpenAPI document). */
  showResponse?: boolean;
}

export const API_EXAMPLES: Record<string, ApiExample> = {
  'POST /v1/chat/completions': {
    body: {
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'You are a concise assistant.' },
        { role: 'user', content: 'Say hello to Conductor.' },
      ],
      temperature: 0.7,
      max_tokens: 64,
    },
  },
  'GET /v1/models': {},
  'GET /v1/providers': {},
  'GET /v1/health': {},
  'GET /v1/status': {},
  'GET /v1/observability/billing/plans': {},
  'POST /v1/waitlist': { body: { email: 'ada@example.com', source: 'coming_soon_page' } },
  'GET /v1/openapi.json': { showResponse: false },
};

/** The base URL the docs show; tests swap it for the live server's origin. */
export const DOCS_API_BASE_URL = 'https://conductor.dev/v1';
/** The environment variable every snippet reads the API key from. */
export const DOCS_API_KEY_VARIABLE = 'CONDUCTOR_API_KEY';
