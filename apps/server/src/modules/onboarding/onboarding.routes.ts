import { CompleteOnboardingInput, ProviderKeysInput, UserResponse } from '@conductor/shared/schemas/onboarding';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedIn } from '../portal/signed-in.ts';
import { allowsLocalResource } from '../provider-keys/azure-resource.ts';
import { completeOnboarding, saveOnboardingKeys } from './onboarding.service.ts';

export const onboardingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { database, clock, secrets, env } = app.context;
  const tags = ['Onboarding'];

  app.post(
    '/api/v1/onboarding/provider-keys',
    {
      schema: {
        tags,
        summary: 'Save your own provider keys (encrypted), an Azure key with its resource URL; sets the byo-keys plan',
        body: ProviderKeysInput,
        response: { 200: UserResponse },
      },
    },
    async (request) => ({
      user: await saveOnboardingKeys(database.db, secrets.encryptionKey, signedIn(request).user.id, request.body, clock.now(), {
        allowLocalEndpoint: allowsLocalResource(env),
      }),
    }),
  );

  app.post(
    '/api/v1/onboarding/complete',
    { schema: { tags, summary: 'Finish onboarding', body: CompleteOnboardingInput, response: { 200: UserResponse } } },
    async (request) => ({ user: await completeOnboarding(database.db, signedIn(request).user.id, request.body.mode, clock.now()) }),
  );
};
