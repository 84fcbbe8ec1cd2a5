import {
  ApiKeyIdParams,
  ApiKeyList,
  ApiKeyView,
  CreateApiKeyInput,
  CreatedApiKey,
  UpdateApiKeyInput,
} from '@conductor/shared/schemas/api-keys';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedIn } from '../portal/signed-in.ts';
import { createApiKeyFor, listApiKeys, renameApiKey, revokeApiKey } from './api-keys.service.ts';

export const apiKeysRoutes: FastifyPluginAsyncZod = async (app) => {
  const { database, clock } = app.context;
  const tags = ['API keys'];

  app.get('/api/v1/api-keys', { schema: { tags, summary: 'Your API keys (masked)', response: { 200: ApiKeyList } } }, async (request) => ({
    keys: await listApiKeys(database.db, signedIn(request), clock.now()),
  }));

  app.post(
    '/api/v1/api-keys',
    { schema: { tags, summary: 'Create a key; the full key is returned once', body: CreateApiKeyInput, response: { 201: CreatedApiKey } } },
    async (request, reply) => {
      const created = await createApiKeyFor(database.db, signedIn(request), request.body, clock.now());
      reply.status(201).header('cache-control', 'no-store');
      return created;
    },
  );

  app.patch(
    '/api/v1/api-keys/:id',
    { schema: { tags, summary: 'Rename a key', params: ApiKeyIdParams, body: UpdateApiKeyInput, response: { 200: ApiKeyView } } },
    async (request) => renameApiKey(database.db, signedIn(request), request.params.id, request.body.name, clock.now()),
  );

  app.delete(
    '/api/v1/api-keys/:id',
    { schema: { tags, summary: 'Revoke a key (it stops working at once)', params: ApiKeyIdParams, response: { 200: ApiKeyView } } },
    async (request) => revokeApiKey(database.db, signedIn(request), request.params.id, clock.now()),
  );
};
