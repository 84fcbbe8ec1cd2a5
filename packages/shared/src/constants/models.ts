import type { ProviderId } from './providers.ts';

/**
 * The model catalogue and price table: one source for the gateway's cost accounting,
 * `GET /v1/models`, cost routing and the dashboard. Prices in USD per 1M tokens.
 */
export interface ModelInfo {
  id: string;
  provider: ProviderId;
  /** The model name sent upstream (Azure: the deployment name). */
  upstreamModel: string;
  contextLength: number;
  inputPerMillion: number;
  outputPerMillion: number;
  /** Models of one class are interchangeable for cost routing and fallback. */
  modelClass: 'frontier' | 'fast' | 'reasoning';
}

export const MODELS: readonly ModelInfo[] = [
  {
    id: 'gpt-4o',
    provider: 'openai',
    upstreamModel: 'gpt-4o',
    contextLength: 128_000,
    inputPerMillion: 2.5,
    outputPerMillion: 10,
    modelClass: 'frontier',
  },
  {
    id: 'gpt-4o-mini',
    provider: 'openai',
    upstreamModel: 'gpt-4o-mini',
    contextLength: 128_000,
    inputPerMillion: 0.15,
    outputPerMillion: 0.6,
    modelClass: 'fast',
  },
  {
    id: 'gpt-4-turbo',
    provider: 'openai',
    upstreamModel: 'gpt-4-turbo',
    contextLength: 128_000,
    inputPerMillion: 10,
    outputPerMillion: 30,
    modelClass: 'frontier',
  },
  {
    id: 'gpt-3.5-turbo',
    provider: 'openai',
    upstreamModel: 'gpt-3.5-turbo',
    contextLength: 16_385,
    inputPerMillion: 0.5,
    outputPerMillion: 1.5,
    modelClass: 'fast',
  },
  {
    id: 'claude-3-5-sonnet',
    provider: 'anthropic',
    upstreamModel: 'claude-3-5-sonnet-20241022',
    contextLength: 200_000,
    inputPerMillion: 3,
    outputPerMillion: 15,
    modelClass: 'frontier',
  },
  {
    id: 'claude-3-5-haiku',
    provider: 'anthropic',
    upstreamModel: 'claude-3-5-haiku-20241022',
    contextLength: 200_000,
    inputPerMillion: 0.8,
    outputPerMillion: 4,
    modelClass: 'fast',
  },
  {
    id: 'claude-3-opus',
    provider: 'anthropic',
    upstreamModel: 'claude-3-opus-20240229',
    contextLength: 200_000,
    inputPerMillion: 15,
    outputPerMillion: 75,
    modelClass: 'frontier',
  },
  {
    id: 'gemini-1.5-pro',
    provider: 'google',
    upstreamModel: 'gemini-1.5-pro',
    contextLength: 2_000_000,
    inputPerMillion: 1.25,
    outputPerMillion: 5,
    modelClass: 'frontier',
  },
  {
    id: 'gemini-1.5-flash',
    provider: 'google',
    upstreamModel: 'gemini-1.5-flash',
    contextLength: 1_000_000,
    inputPerMillion: 0.075,
    outputPerMillion: 0.3,
    modelClass: 'fast',
  },
  {
    id: 'gemini-pro',
    provider: 'google',
    upstreamModel: 'gemini-1.0-pro',
    contextLength: 32_760,
    inputPerMillion: 0.5,
    outputPerMillion: 1.5,
    modelClass: 'fast',
  },
  {
    id: 'azure-gpt-4o',
    provider: 'azure',
    upstreamModel: 'gpt-4o',
    contextLength: 128_000,
    inputPerMillion: 2.5,
    outputPerMillion: 10,
    modelClass: 'frontier',
  },
  {
    id: 'azure-gpt-4o-mini',
    provider: 'azure',
    upstreamModel: 'gpt-4o-mini',
    contextLength: 128_000,
    inputPerMillion: 0.15,
    outputPerMillion: 0.6,
    modelClass: 'fast',
  },
  {
    id: 'mistral-large-latest',
    provider: 'mistral',
    upstreamModel: 'mistral-large-latest',
    contextLength: 128_000,
    inputPerMillion: 2,
    outputPerMillion: 6,
    modelClass: 'frontier',
  },
  {
    id: 'mistral-small-latest',
    provider: 'mistral',
    upstreamModel: 'mistral-small-latest',
    contextLength: 32_000,
    inputPerMillion: 0.2,
    outputPerMillion: 0.6,
    modelClass: 'fast',
  },
  {
    id: 'command-r-plus',
    provider: 'cohere',
    upstreamModel: 'command-r-plus',
    contextLength: 128_000,
    inputPerMillion: 2.5,
    outputPerMillion: 10,
    modelClass: 'frontier',
  },
  {
    id: 'command-r',
    provider: 'cohere',
    upstreamModel: 'command-r',
    contextLength: 128_000,
    inputPerMillion: 0.15,
    outputPerMillion: 0.6,
    modelClass: 'fast',
  },
];

/** Friendly aliases accepted as `model`. */
export const MODEL_ALIASES: Record<string, string> = {
  'gpt-4': 'gpt-4-turbo',
  'claude-3': 'claude-3-5-sonnet',
  'claude-3-sonnet': 'claude-3-5-sonnet',
  'claude-3-haiku': 'claude-3-5-haiku',
  gemini: 'gemini-1.5-pro',
  'mistral-large': 'mistral-large-latest',
  'mistral-small': 'mistral-small-latest',
};

export function findModel(id: string): ModelInfo | undefined {
  const resolved = MODEL_ALIASES[id] ?? id;
  return MODELS.find((model) => model.id === resolved);
}

/**
 * A model `provider` serves, named by its catalogue id or alias or by the provider's own
 * upstream name (`{azure, gpt-4o}` is `azure-gpt-4o`): the rule for routing targets.
 */
export function findProviderModel(provider: ProviderId, model: string): ModelInfo | undefined {
  const direct = findModel(model);
  if (direct?.provider === provider) return direct;
  return MODELS.find((entry) => entry.provider === provider && entry.upstreamModel === model);
}

/** Cost of a request in USD micro-units (1 USD = 1,000,000). */
export function costMicros(model: ModelInfo | undefined, promptTokens: number, completionTokens: number): number {
  if (!model) return 0;
  return Math.round(promptTokens * model.inputPerMillion + completionTokens * model.outputPerMillion);
}
