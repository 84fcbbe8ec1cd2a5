export const PROVIDER_IDS = ['openai', 'anthropic', 'google', 'azure', 'mistral', 'cohere'] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

export const PROVIDER_NAMES: Record<ProviderId, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  google: 'Google',
  azure: 'Azure OpenAI',
  mistral: 'Mistral',
  cohere: 'Cohere',
};
