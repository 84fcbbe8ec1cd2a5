import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { consentPage, ISSUER_PAGE_HEADERS, issuerErrorPage } from './consent-page.ts';
import { DEMO_CLIENT_NAME, DEMO_MOUNT_PATH } from './demo-issuer.ts';
import { demoClaims, isDemoSubject, newDemoSubject } from './demo-identity.ts';

const GRANTABLE_SCOPES = new Set(['openid', 'profile', 'email']);
type InteractionRequest = FastifyRequest<{ Params: { uid: string } }>;

/**
 * Mounts the demo issuer under /oidc. oidc-provider is a Koa app: Fastify hands it the raw
 * request (body unread, URL relative to the mount, `originalUrl` set so it builds its own
 * URLs) and steps aside by hijacking the reply. The consent interaction is ours.
 */
export async function demoIssuerPlugin(app: FastifyInstance, options: { provider: Provider }): Promise<void> {
  const { provider } = options;
  // oidc-provider reads its own request bodies: leave every body unread.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  const expired = (reply: FastifyReply) =>
    reply
      .status(400)
      .headers(ISSUER_PAGE_HEADERS)
      .send(issuerErrorPage('This sign-in request has expired', 'Go back to Conductor and choose Demo OIDC again.'));

  app.get('/oidc/interaction/:uid', { schema: { hide: true } }, async (request: InteractionRequest, reply) => {
    const details = await provider.interactionDetails(request.raw, reply.raw).catch(() => undefined);
    if (!details || details.uid !== request.params.uid) return expired(reply);
    const accountId = details.session?.accountId;
    return reply.headers(ISSUER_PAGE_HEADERS).send(
      consentPage({
        uid: details.uid,
        mountPath: DEMO_MOUNT_PATH,
        clientName: DEMO_CLIENT_NAME,
        identity: accountId && isDemoSubject(accountId) ? demoClaims(accountId) : null,
        scopes: String(details.params.scope ?? '').split(' '),
      }),
    );
  });

  app.post('/oidc/interaction/:uid/confirm', { schema: { hide: true } }, async (request: InteractionRequest, reply) => {
    const details = await provider.interactionDetails(request.raw, reply.raw).catch(() => undefined);
    if (!details || details.uid !== request.params.uid) return expired(reply);
    const existing = details.session?.accountId;
    const accountId = existing && isDemoSubject(existing) ? existing : newDemoSubject();
    const clientId = String(details.params.client_id);
    const grant = (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ?? new provider.Grant({ accountId, clientId });
    const scopes = String(details.params.scope ?? '')
      .split(' ')
      .filter((scope) => GRANTABLE_SCOPES.has(scope));
    grant.addOIDCScope(scopes.join(' '));
    const missingClaims = details.prompt.details.missingOIDCClaims;
    if (Array.isArray(missingClaims)) grant.addOIDCClaims(missingClaims as string[]);
    const grantId = await grant.save();
    const returnTo = await provider.interactionResult(
      request.raw,
      reply.raw,
      { login: { accountId }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
    return reply.redirect(returnTo, 303);
  });

  app.post('/oidc/interaction/:uid/abort', { schema: { hide: true } }, async (request: InteractionRequest, reply) => {
    const details = await provider.interactionDetails(request.raw, reply.raw).catch(() => undefined);
    if (!details || details.uid !== request.params.uid) return expired(reply);
    const returnTo = await provider.interactionResult(
      request.raw,
      reply.raw,
      { error: 'access_denied', error_description: 'The sign-in request was cancelled at the Demo OIDC provider.' },
      { mergeWithLastSubmission: false },
    );
    return reply.redirect(returnTo, 303);
  });

  const handle = provider.callback();
  const mount = (request: FastifyRequest, reply: FastifyReply) => {
    reply.hijack();
    const raw = request.raw as IncomingMessage & { originalUrl?: string };
    const url = raw.url ?? DEMO_MOUNT_PATH;
    raw.originalUrl = url;
    const rest = url.slice(DEMO_MOUNT_PATH.length);
    raw.url = rest.startsWith('/') ? rest : `/${rest}`;
    void handle(raw, reply.raw);
  };
  app.all(DEMO_MOUNT_PATH, { schema: { hide: true } }, mount);
  app.all(`${DEMO_MOUNT_PATH}/*`, { schema: { hide: true } }, mount);
}
