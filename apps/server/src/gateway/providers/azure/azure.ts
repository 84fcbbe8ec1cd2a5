import { createOpenAiCompatibleAdapter } from '../openai-compatible/create-adapter.ts';

/** The GA API version used when the configuration names none. */
export const AZURE_DEFAULT_API_VERSION = '2024-10-21';

/**
 * Azure OpenAI: `POST {resource}/openai/deployments/{deployment}/chat/completions?api-version=…`
 * with the `api-key` header; the deployment is the model's `upstreamModel`, and the body carries no
 * `model`. There is no global endpoint, so the base URL (`https://{resource}.openai.azure.com`)
 * must be configured: `defaultBaseUrl` is empty.
 * https://learn.microsoft.com/en-us/azure/ai-services/openai/reference#chat-completions
 */
export const azureAdapter = createOpenAiCompatibleAdapter({
  id: 'azure',
  name: 'Azure OpenAI',
  defaultBaseUrl: '',
  allowedHostSuffixes: ['.openai.azure.com', '.cognitiveservices.azure.com'],
  body: {
    developerRole: false,
    modelInBody: false,
    streamUsageOption: true,
    seedField: 'seed',
    userField: true,
    maxCompletionTokens: true,
  },
  url: (credentials, deployment) =>
    `${credentials.baseUrl}/openai/deployments/${encodeURIComponent(deployment)}/chat/completions?api-version=${encodeURIComponent(
      credentials.apiVersion ?? AZURE_DEFAULT_API_VERSION,
    )}`,
  authHeaders: (credentials) => ({ 'api-key': credentials.apiKey }),
});
