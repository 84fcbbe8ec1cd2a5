import type { FastifyPluginAsync } from 'fastify';
import { createDemoIssuer, DEMO_CLIENT_ID, demoClientSecret } from './demo-issuer.ts';
import { demoIssuerUrl, demoRedirectUris } from './demo-issuer-config.ts';
import { demoIssuerPlugin } from './demo-issuer.plugin.ts';
import { inProcessFetch } from './in-process-fetch.ts';
import { oidcRoutes } from './oidc.routes.ts';
import { createSsoProviders } from './providers.ts';
import { loadSigningKeys } from './signing-keys.ts';
import { createSsoTransactionStore } from './sso-transactions.ts';

/** Single sign-on: the embedded demo issuer at /oidc and the relying-party API under /api/v1/auth. */
export const oidcPlugin: FastifyPluginAsync = async (app) => {
  const { env, database, clock, secrets, redis } = app.context;
  const issuer = demoIssuerUrl(env);
  const clientSecret = demoClientSecret(secrets.sessionSecret);
  const provider = createDemoIssuer({
    issuer,
    db: database.db,
    clock,
    jwks: await loadSigningKeys({ db: database.db, encryptionKey: secrets.encryptionKey, dataDir: env.DATA_DIR, log: app.log }),
    sessionSecret: secrets.sessionSecret,
    redirectUris: demoRedirectUris(env),
  });
  await app.register(demoIssuerPlugin, { provider });
  const providers = createSsoProviders(env, { issuer, clientId: DEMO_CLIENT_ID, clientSecret, fetch: inProcessFetch(app, issuer) });
  await app.register(oidcRoutes, {
    providers,
    transactions: createSsoTransactionStore({ db: database.db, redis, redisPrefix: env.GATEWAY_REDIS_PREFIX, clock, log: app.log }),
  });
};
