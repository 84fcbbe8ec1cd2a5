import { MODEL_ALIASES, MODELS, type ModelInfo, PROVIDER_IDS, PROVIDER_NAMES, findModel } from '@conductor/shared';
import { ModelList, ModelObject, ProviderList, type ProviderObject } from '@conductor/shared/openai/models';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { GatewayPrincipal } from '../auth/api-key-auth.ts';
import { chooseKey } from '../credentials/upstreams.ts';
import { errors } from '../gateway-error.ts';
import type { GatewayRuntime } from '../gateway-runtime.ts';

/** Catalogue timestamps are fixed (the day the catalogue was published), so responses are stable. */
const CATALOGUE_CREATED = 1_735_689_600;

function modelObject(model: ModelInfo): ModelObject {
  return {
    id: model.id,
    object: 'model',
    created: CATALOGUE_CREATED,
    owned_by: model.provider,
    context_length: model.contextLength,
    model_class: model.modelClass,
    aliases: Object.entries(MODEL_ALIASES)
      .filter(([, target]) => target === model.id)
      .map(([alias]) => alias),
    response_formats: ['text', ...model.responseFormats],
    pricing: { currency: 'USD', input_per_million: model.inputPerMillion, output_per_million: model.outputPerMillion },
  };
}

function requirePrincipal(principal: GatewayPrincipal | null): GatewayPrincipal {
  if (!principal) throw errors.missingKey();
  if (!principal.permissions.includes('api')) throw errors.noApiPermission();
  return principal;
}

/** `GET /v1/models`, `GET /v1/models/{model}` and `GET /v1/providers`. */
export function catalogueRoutes(runtime: GatewayRuntime): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/v1/models',
      {
        schema: {
          tags: ['Gateway'],
          summary: 'List models',
          description: 'Every model served, with its provider, context length and prices (USD per 1M tokens).',
          response: { 200: ModelList },
        },
      },
      async (request) => {
        requirePrincipal(request.gatewayPrincipal);
        return { object: 'list' as const, data: MODELS.map(modelObject) };
      },
    );

    app.get(
      '/v1/models/:model',
      {
        schema: {
          tags: ['Gateway'],
          summary: 'Retrieve a model',
          params: z.object({ model: z.string().max(128) }),
          response: { 200: ModelObject },
        },
      },
      async (request) => {
        requirePrincipal(request.gatewayPrincipal);
        const model = findModel(request.params.model);
        if (!model) throw errors.unknownModel(request.params.model);
        return modelObject(model);
      },
    );

    app.get(
      '/v1/providers',
      {
        schema: {
          tags: ['Gateway'],
          summary: 'List providers',
          description:
            'Each provider: whether a key is available to the caller (own, hosted or sandbox), whether it is healthy, and its models.',
          response: { 200: ProviderList },
        },
      },
      async (request) => {
        const principal = requirePrincipal(request.gatewayPrincipal);
        const sandbox = principal.environment === 'test';
        const data = PROVIDER_IDS.map((provider): ProviderObject => {
          const key = sandbox ? undefined : chooseKey(runtime.upstreams[provider], principal);
          return {
            id: provider,
            object: 'provider',
            name: PROVIDER_NAMES[provider],
            configured: sandbox || key !== undefined,
            key_source: sandbox ? 'sandbox' : (key?.keySource ?? null),
            healthy: sandbox || (key ? runtime.isEndpointHealthy(key.breakerKey) : runtime.isProviderHealthy(provider)),
            models: MODELS.filter((model) => model.provider === provider).map((model) => model.id),
          };
        });
        return { object: 'list' as const, data };
      },
    );
  };
}
