import type { FastifyError } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { explainedJsonParser, FORBIDDEN_KEYS, ForbiddenKeysError } from '../plugins/error-handler.ts';
import type { GatewayPrincipal } from './auth/api-key-auth.ts';
import { GatewayError } from './gateway-error.ts';
import { createGatewayRuntime, type GatewayRuntime } from './gateway-runtime.ts';
import { ChatCall } from './pipeline/chat-call.ts';
import { overheadMs, sendGatewayError, servedHeaders } from './pipeline/responses.ts';
import { catalogueRoutes } from './routes/catalogue.routes.ts';
import { CHAT_COMPLETIONS_PATH, chatCompletionsRoutes } from './routes/chat-completions.routes.ts';

export { invalidateAccountCache, invalidateApiKeyCache, invalidateProviderKeyCache } from './auth/api-key-auth.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The gateway's shared state: breakers (for health), the usage meter (flush in tests), limits. */
    gateway: GatewayRuntime;
  }
  interface FastifyRequest {
    /** The API key's principal on `/v1` gateway routes (set before the body is read). */
    gatewayPrincipal: GatewayPrincipal | null;
  }
}

const BODY_ERRORS: Record<string, [number, string, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'invalid_json', 'Request body is not valid JSON.'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'invalid_json', 'Request body must not be empty when Content-Type is application/json.'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'request_too_large', 'Request body is too large.'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type', 'Content-Type must be application/json.'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'invalid_request', 'Content-Length does not match the body.'],
};

/** Client errors raised by Fastify itself (body parsing), in the OpenAI envelope; anything else goes to the app's handler. */
function asGatewayError(error: FastifyError): GatewayError | undefined {
  if (error instanceof GatewayError) return error;
  const known = error.code ? BODY_ERRORS[error.code] : undefined;
  if (known) return new GatewayError(known[0], 'invalid_request_error', known[1], known[2]);
  if (error instanceof SyntaxError)
    return new GatewayError(
      400,
      'invalid_request_error',
      'invalid_json',
      error instanceof ForbiddenKeysError ? `${FORBIDDEN_KEYS}.` : 'Request body is not valid JSON.',
    );
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500)
    return new GatewayError(status, status === 429 ? 'rate_limit_error' : 'invalid_request_error', 'invalid_request', error.message);
  return undefined;
}

function gatewayRoutes(runtime: GatewayRuntime): FastifyPluginAsyncZod {
  return async (app) => {
    app.decorateRequest('gatewayPrincipal', null);
    // Authentication runs before the body is parsed: an unauthenticated caller costs no body parsing.
    // Callback style: a cached key is admitted without a promise or a microtask.
    app.addHook('onRequest', (request, _reply, done) => {
      let principal: ReturnType<typeof runtime.authenticator.authenticateCached>;
      try {
        principal = runtime.authenticator.authenticateCached(request.headers.authorization, request);
      } catch (error) {
        return done(error as Error);
      }
      if (!(principal instanceof Promise)) {
        request.gatewayPrincipal = principal;
        return done();
      }
      principal.then((loaded) => {
        request.gatewayPrincipal = loaded;
        done();
      }, done);
    });
    // Chat bodies are parsed with JSON.parse alone when they cannot hold a prototype key: Fastify's
    // guarded parser scans every body twice with regular expressions for `__proto__` and
    // `constructor` (escaped or not). A body with either word, a `\u` escape, or that fails to
    // parse takes the guarded parser, so what is accepted and every error are exactly as before.
    const guardedJson = explainedJsonParser(app.getDefaultJsonParser('error', 'error'));
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = body as string;
      if (text.length > 0 && !text.includes('proto') && !text.includes('constructor') && !text.includes('\\u')) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          return guardedJson(request, text, done);
        }
        return done(null, parsed);
      }
      return guardedJson(request, text, done);
    });
    // Only JSON bodies: a `text/plain` one is refused with 415 like any other type, not parsed as a string.
    app.removeContentTypeParser('text/plain');
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const gatewayError = asGatewayError(error);
      if (!gatewayError) throw error;
      // A chat request whose body Fastify refused is metered too: every outcome after authentication is.
      const principal = request.gatewayPrincipal;
      if (principal && !reply.sent && request.routeOptions.url === CHAT_COMPLETIONS_PATH) {
        new ChatCall(runtime, request, reply, principal).refuse(gatewayError);
        return reply;
      }
      return sendGatewayError(reply, gatewayError, servedHeaders({}, overheadMs(reply, 0)));
    });
    await app.register(chatCompletionsRoutes(runtime));
    await app.register(catalogueRoutes(runtime));
  };
}

/**
 * The OpenAI-compatible gateway under /v1 (chat completions, models, providers). The runtime
 * is decorated on the root instance (health reads its breakers); the routes live in their own
 * encapsulated context with the gateway's authentication and error envelope.
 */
export const gatewayPlugin: FastifyPluginAsyncZod = async (app) => {
  const runtime = createGatewayRuntime(app.context, app.log);
  app.decorate('gateway', runtime);
  app.addHook('onClose', async () => runtime.close());
  await app.register(gatewayRoutes(runtime));
};

// Like fastify-plugin: the decoration must be visible to the whole app, not only this plugin.
Object.defineProperty(gatewayPlugin, Symbol.for('skip-override'), { value: true });
