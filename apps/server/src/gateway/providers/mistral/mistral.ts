import { createOpenAiCompatibleAdapter } from '../openai-compatible/create-adapter.ts';

/**
 * Mistral chat completions: OpenAI-shaped, `POST https://api.mistral.ai/v1/chat/completions` with
 * `Authorization: Bearer`. Differences: `random_seed` instead of `seed`, no `user`, `developer`,
 * `max_completion_tokens` or `stream_options` (the last chunk carries `usage` unasked), and the
 * extra finish reason `model_length`.
 * https://docs.mistral.ai/api/#tag/chat/operation/chat_completion_v1_chat_completions_post
 */
export const mistralAdapter = createOpenAiCompatibleAdapter({
  id: 'mistral',
  name: 'Mistral',
  defaultBaseUrl: 'https://api.mistral.ai/v1',
  allowedHostSuffixes: ['api.mistral.ai'],
  body: {
    developerRole: false,
    modelInBody: true,
    streamUsageOption: false,
    seedField: 'random_seed',
    userField: false,
    maxCompletionTokens: false,
  },
  url: (credentials) => `${credentials.baseUrl}/chat/completions`,
  authHeaders: (credentials) => ({ authorization: `Bearer ${credentials.apiKey}` }),
});
