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
  /**
   * The structured `response_format`s the model serves besides plain text: `json_object` (JSON
   * mode) and `json_schema` (output held to a caller's JSON Schema), per its provider's docs.
   */
  responseFormats: readonly StructuredFormat[];
}

/** A `response_format.type` that asks for JSON. */
export type StructuredFormat = 'json_object' | 'json_schema';
const JSON_BOTH: readonly StructuredFormat[] = ['json_object', 'json_schema'];
const JSON_MODE_ONLY: readonly StructuredFormat[] = ['json_object'];
const TEXT_ONLY: readonly StructuredFormat[] = [];

export const MODELS: readonly ModelInfo[] = [
  {
    id: 'gpt-4o',
    provider: 'openai',
    upstreamModel: 'gpt-4o',
    contextLength: 128_000,
    inputPerMillion: 2.5,
    outputPerMillion: 10,
    modelClass: 'frontier',
    responseFormats: JSON_BOTH,
  },
  {
    id: 'gpt-4o-mini',
    provider: 'openai',
    upstreamModel: 'gpt-4o-mini',
    contextLength: 128_000,
    inputPerMillion: 0.15,
    outputPerMillion: 0.6,
    modelClass: 'fast',
    responseFormats: JSON_BOTH,
  },
  {
    id: 'gpt-4-turbo',
    provider: 'openai',
    upstreamModel: 'gpt-4-turbo',
    contextLength: 128_000,
    inputPerMillion: 10,
    outputPerMillion: 30,
    modelClass: 'frontier',
    responseFormats: JSON_MODE_ONLY,
  },
  {
    id: 'gpt-3.5-turbo',
    provider: 'openai',
    upstreamModel: 'gpt-3.5-turbo',
    contextLength: 16_385,
    inputPerMillion: 0.5,
    outputPerMillion: 1.5,
    modelClass: 'fast',
    responseFormats: JSON_MODE_ONLY,
  },
  {
    id: 'claude-3-5-sonnet',
    provider: 'anthropic',
    upstreamModel: 'claude-3-5-sonnet-20241022',
    contextLength: 200_000,
    inputPerMillion: 3,
    outputPerMillion: 15,
    modelClass: 'frontier',
    responseFormats: TEXT_ONLY,
  },
  {
    id: 'claude-3-5-haiku',
    provider: 'anthropic',
    upstreamModel: 'claude-3-5-haiku-20241022',
    contextLength: 200_000,
    inputPerMillion: 0.8,
    outputPerMillion: 4,
    modelClass: 'fast',
    responseFormats: TEXT_ONLY,
  },
  {
    id: 'claude-3-opus',
    provider: 'anthropic',
    upstreamModel: 'claude-3-opus-20240229',
    contextLength: 200_000,
    inputPerMillion: 15,
    outputPerMillion: 75,
    modelClass: 'frontier',
    responseFormats: TEXT_ONLY,
  },
  {
    id: 'gemini-1.5-pro',
    provider: 'google',
    upstreamModel: 'gemini-1.5-pro',
    contextLength: 2_000_000,
    inputPerMillion: 1.25,
    outputPerMillion: 5,
    modelClass: 'frontier',
    responseFormats: JSON_BOTH,
  },
  {
    id: 'gemini-1.5-flash',
    provider: 'google',
    upstreamModel: 'gemini-1.5-flash',
    contextLength: 1_000_000,
    inputPerMillion: 0.075,
    outputPerMillion: 0.3,
    modelClass: 'fast',
    responseFormats: JSON_BOTH,
  },
  {
    id: 'gemini-pro',
    provider: 'google',
    upstreamModel: 'gemini-1.0-pro',
    contextLength: 32_760,
    inputPerMillion: 0.5,
    outputPerMillion: 1.5,
    modelClass: 'fast',
    responseFormats: TEXT_ONLY,
  },
  {
    id: 'azure-gpt-4o',
    provider: 'azure',
    upstreamModel: 'gpt-4o',
    contextLength: 128_000,
    inputPerMillion: 2.5,
    outputPerMillion: 10,
    modelClass: 'frontier',
    responseFormats: JSON_BOTH,
  },
  {
    id: 'azure-gpt-4o-mini',
    provider: 'azure',
    upstreamModel: 'gpt-4o-mini',
    contextLength: 128_000,
    inputPerMillion: 0.15,
    outputPerMillion: 0.6,
    modelClass: 'fast',
    responseFormats: JSON_BOTH,
  },
  {
    id: 'mistral-large-latest',
    provider: 'mistral',
    upstreamModel: 'mistral-large-latest',
    contextLength: 128_000,
    inputPerMillion: 2,
    outputPerMillion: 6,
    modelClass: 'frontier',
    responseFormats: JSON_BOTH,
  },
  {
    id: 'mistral-small-latest',
    provider: 'mistral',
    upstreamModel: 'mistral-small-latest',
    contextLength: 32_000,
    inputPerMillion: 0.2,
    outputPerMillion: 0.6,
    modelClass: 'fast',
    responseFormats: JSON_BOTH,
  },
  {
    id: 'command-r-plus',
    provider: 'cohere',
    upstreamModel: 'command-r-plus',
    contextLength: 128_000,
    inputPerMillion: 2.5,
    outputPerMillion: 10,
    modelClass: 'frontier',
    responseFormats: JSON_BOTH,
  },
  {
    id: 'command-r',
    provider: 'cohere',
    upstreamModel: 'command-r',
    contextLength: 128_000,
    inputPerMillion: 0.15,
    outputPerMillion: 0.6,
    modelClass: 'fast',
    responseFormats: JSON_BOTH,
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
