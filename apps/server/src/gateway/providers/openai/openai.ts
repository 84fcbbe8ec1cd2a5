import { createOpenAiCompatibleAdapter } from '../openai-compatible/create-adapter.ts';

/**
 * OpenAI Chat Completions: `POST {base}/chat/completions` with `Authorization: Bearer`, base
 * `https://api.openai.com/v1` as in the official SDK.
 * https://platform.openai.com/docs/api-reference/chat/create
 */
export const openaiAdapter = createOpenAiCompatibleAdapter({
  id: 'openai',
  name: 'OpenAI',
  defaultBaseUrl: 'https://api.openai.com/v1',
  allowedHostSuffixes: ['api.openai.com'],
  body: { developerRole: true, modelInBody: true, streamUsageOption: true, seedField: 'seed', userField: true, maxCompletionTokens: true },
  url: (credentials) => `${credentials.baseUrl}/chat/completions`,
  authHeaders: (credentials) => ({ authorization: `Bearer ${credentials.apiKey}` }),
});
