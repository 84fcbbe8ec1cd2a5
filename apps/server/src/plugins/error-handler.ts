import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { MESSAGES } from '@conductor/shared';
import type { OpenAiErrorType } from '@conductor/shared/openai/chat';
import { AppError } from '../lib/errors.ts';
import { routedPath } from '../lib/request-path.ts';

interface ErrorView {
  statusCode: number;
  code: string;
  message: string;
  fields?: Record<string, string>;
  param?: string | null;
  retryAfterSeconds?: number;
}

/** Fastify's own refusals of a body, under the product's codes (clients need not know the framework's). */
const FRAMEWORK_ERRORS: Record<string, { code: string; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_json', message: 'Request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_json', message: 'Request body must not be empty when Content-Type is application/json' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'payload_too_large', message: 'Request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'unsupported_media_type', message: 'Unsupported Content-Type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'bad_request', message: 'Content-Length does not match the body' },
};

/** What the guarded JSON parser refuses in a body that parses (prototype pollution). */
export const FORBIDDEN_KEYS = 'Request body must not contain "__proto__" or "constructor.prototype" keys';

/** A refusal of valid JSON for a prototype key (the guarded parser's own says only "not valid JSON"). */
export class ForbiddenKeysError extends SyntaxError {
  readonly statusCode = 400;
}

type JsonParser = (request: FastifyRequest, body: string, done: (error: Error | null, value?: unknown) => void) => void;

/**
 * Fastify's guarded JSON parser, saying why when it refuses a body that is valid JSON: it holds
 * `__proto__` or `constructor.prototype` (the parser reports every refusal as invalid JSON).
 * Parsing the body again happens only on that error path.
 */
export function explainedJsonParser(guarded: JsonParser): JsonParser {
  return (request, body, done) =>
    guarded(request, body, (error, value) => {
      if (error && (error as FastifyError).code === 'FST_ERR_CTP_INVALID_JSON_BODY' && parses(body)) {
        return done(new ForbiddenKeysError(FORBIDDEN_KEYS));
      }
      done(error, value);
    });
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Registers the explained parser for JSON bodies on this instance (and its children). */
export function registerJsonParser(app: FastifyInstance): void {
  const guarded = explainedJsonParser(app.getDefaultJsonParser('error', 'error') as JsonParser);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => guarded(request, body as string, done));
}

/** PostgreSQL's "invalid byte sequence" (a NUL in text) and "untranslatable character". */
const UNSTORABLE_TEXT: ReadonlySet<string> = new Set(['22021', '22P05']);

/** The SQLSTATE of a database error, also when the query builder wrapped it (as its `cause`). */
function databaseErrorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 3; current = current.cause, depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

function describe(error: FastifyError | AppError | Error): ErrorView {
  if (error instanceof AppError) {
    return {
      statusCode: error.statusCode,
      code: error.code,
      message: error.message,
      ...(error.fields ? { fields: error.fields } : {}),
      ...(error.retryAfterSeconds ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
    };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields: Record<string, string> = {};
    for (const issue of error.validation) {
      const key = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
      fields[key] ??= issue.message ?? 'Invalid value';
    }
    const [firstKey, firstMessage] = Object.entries(fields)[0] ?? ['_', 'Invalid request'];
    const context = error.validationContext ?? 'body';
    return {
      statusCode: 400,
      code: 'validation_failed',
      message: firstKey === '_' ? firstMessage : `Invalid ${context} field '${firstKey}': ${firstMessage}`,
      fields,
      param: firstKey === '_' ? null : firstKey,
    };
  }
  if (UNSTORABLE_TEXT.has(databaseErrorCode(error) ?? '')) {
    // A safety net behind the schemas: text PostgreSQL cannot store (a NUL character) is the request's fault.
    return { statusCode: 400, code: 'bad_request', message: 'Text fields must not contain NUL or other control characters.' };
  }
  const fastifyError = error as FastifyError;
  const status = fastifyError.statusCode ?? 500;
  const known = fastifyError.code ? FRAMEWORK_ERRORS[fastifyError.code] : undefined;
  if (known) return { statusCode: status, code: known.code, message: known.message };
  if (error instanceof SyntaxError && status === 400) {
    // Valid JSON that the guarded parser refuses: say why, not that it does not parse.
    if (error instanceof ForbiddenKeysError) return { statusCode: 400, code: 'invalid_json', message: FORBIDDEN_KEYS };
    return { statusCode: 400, code: 'invalid_json', message: 'Request body is not valid JSON' };
  }
  if (status >= 400 && status < 500) return { statusCode: status, code: fastifyError.code ?? 'bad_request', message: error.message };
  return { statusCode: 500, code: 'internal', message: MESSAGES.serverError };
}

const OPENAI_TYPE: Record<number, OpenAiErrorType> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  405: 'invalid_request_error',
  409: 'invalid_request_error',
  413: 'invalid_request_error',
  415: 'invalid_request_error',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
};

/** `/v1/*` (the public, OpenAI-compatible API) answers in the OpenAI error envelope. */
export function isPublicApi(url: string): boolean {
  const path = routedPath(url) ?? url;
  return path === '/v1' || path.startsWith('/v1/');
}

export function sendError(request: FastifyRequest, reply: FastifyReply, view: ErrorView): FastifyReply {
  if (view.retryAfterSeconds) reply.header('retry-after', String(view.retryAfterSeconds));
  reply.status(view.statusCode);
  if (isPublicApi(request.url)) {
    return reply.send({
      error: {
        message: view.message,
        type: OPENAI_TYPE[view.statusCode] ?? 'api_error',
        param: view.param ?? null,
        // The gateway's own 500 code (GatewayError), so `/v1` callers see one code for it.
        code: view.code === 'internal' ? 'internal_error' : view.code,
      },
    });
  }
  return reply.send({ error: { code: view.code, message: view.message, ...(view.fields ? { fields: view.fields } : {}) } });
}

/** The address is not valid: it has a malformed percent-encoding. */
export const MALFORMED_URL = 'The address is not valid: it has a malformed percent-encoding.';

/**
 * Fastify's refusals before any route runs (`frameworkErrors`: a malformed percent-encoding in
 * the path), in the product's envelope (the OpenAI one under /v1) rather than the framework's.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error.code === 'FST_ERR_BAD_URL') return sendError(request, reply, { statusCode: 400, code: 'bad_request', message: MALFORMED_URL });
  const view = describe(error);
  if (view.statusCode >= 500) request.log.error({ err: error }, 'request failed before routing');
  return sendError(request, reply, view);
}

/** One error handler: client errors are explained, server errors are logged and hidden. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    const view = describe(error);
    if (view.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(request, reply, view);
  });
}
