import { z } from 'zod';
import { PROVIDER_IDS } from '../constants/providers.ts';

/** `GET /v1/models`: OpenAI's list shape plus context length and prices (USD per 1M tokens). */
export const ModelObject = z.object({
  id: z.string(),
  object: z.literal('model'),
  created: z.number().int(),
  owned_by: z.enum(PROVIDER_IDS),
  context_length: z.number().int().positive(),
  model_class: z.enum(['frontier', 'fast', 'reasoning']),
  aliases: z.array(z.string()),
  /** The `response_format` types the model serves (`text` always). */
  response_formats: z.array(z.enum(['text', 'json_object', 'json_schema'])),
  pricing: z.object({
    currency: z.literal('USD'),
    input_per_million: z.number().nonnegative(),
    output_per_million: z.number().nonnegative(),
  }),
});
export type ModelObject = z.infer<typeof ModelObject>;

export const ModelList = z.object({ object: z.literal('list'), data: z.array(ModelObject) });
export type ModelList = z.infer<typeof ModelList>;

/** `GET /v1/providers`: whether the caller can reach each provider, and whether it is healthy now. */
export const ProviderObject = z.object({
  id: z.enum(PROVIDER_IDS),
  object: z.literal('provider'),
  name: z.string(),
  /** A key is available to the caller: their own (`byok`), the server's (`hosted`), or the sandbox for test keys. */
  configured: z.boolean(),
  key_source: z.enum(['byok', 'hosted', 'sandbox']).nullable(),
  /** The circuit breaker in front of this provider is closed (or half-open and probing). */
  healthy: z.boolean(),
  models: z.array(z.string()),
});
export type ProviderObject = z.infer<typeof ProviderObject>;

export const ProviderList = z.object({ object: z.literal('list'), data: z.array(ProviderObject) });
export type ProviderList = z.infer<typeof ProviderList>;

/** `x-conductor-routing`: a strategy name, or the same JSON as the body's `conductor` member. */
export const ROUTING_HEADER = 'x-conductor-routing';
/** Test keys only: simulated upstream latency before the first byte, in milliseconds (capped). */
export const SANDBOX_LATENCY_HEADER = 'x-conductor-sandbox-latency-ms';
export const SANDBOX_MAX_LATENCY_MS = 30_000;
