import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiKeysRoutes } from '../api-keys/api-keys.routes.ts';
import { billingRoutes } from '../billing/billing.routes.ts';
import { onboardingRoutes } from '../onboarding/onboarding.routes.ts';
import { settingsRoutes } from '../settings/settings.routes.ts';
import { usageRoutes } from '../usage/usage.routes.ts';

/**
 * The signed-in portal: onboarding, usage, API keys, billing and settings under /api/v1.
 * Every route here needs a session (this plugin is encapsulated, so the hook stays inside).
 */
export const portalPlugin: FastifyPluginAsyncZod = async (app) => {
  // onRequest (after the session is resolved), so a signed-out call gets 401 before any input validation.
  app.addHook('onRequest', app.requireUser);
  await app.register(onboardingRoutes);
  await app.register(usageRoutes);
  await app.register(apiKeysRoutes);
  await app.register(billingRoutes);
  await app.register(settingsRoutes);
};
