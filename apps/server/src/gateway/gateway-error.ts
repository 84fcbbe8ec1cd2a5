import type { OpenAiErrorEnvelope, OpenAiErrorType } from '@conductor/shared/openai/chat';
import { MODELS, type ModelInfo, type StructuredFormat } from '@conductor/shared';

/**
 * An error answered to a `/v1` caller in the OpenAI envelope. Errors are values: the router
 * builds them from upstream classifications, the routes throw them, one handler sends them.
 */
export class GatewayError extends Error {
  readonly status: number;
  readonly type: OpenAiErrorType;
  readonly code: string;
  readonly param: string | null;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    status: number,
    type: OpenAiErrorType,
    code: string,
    message: string,
    options: { param?: string | null; retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'GatewayError';
    this.status = status;
    this.type = type;
    this.code = code;
    this.param = options.param ?? null;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  toEnvelope(): OpenAiErrorEnvelope {
    return { error: { message: this.message, type: this.type, param: this.param, code: this.code } };
  }
}

const KNOWN_TYPES = new Set<string>([
  'invalid_request_error',
  'authentication_error',
  'permission_error',
  'not_found_error',
  'rate_limit_error',
  'insufficient_quota',
  'api_error',
  'upstream_error',
  'timeout_error',
]);

/** An upstream classification's type, narrowed to the public enum. */
export function publicErrorType(type: string, status: number): OpenAiErrorType {
  if (KNOWN_TYPES.has(type)) return type as OpenAiErrorType;
  return status >= 500 ? 'upstream_error' : 'invalid_request_error';
}

export const errors = {
  missingKey: () =>
    new GatewayError(
      401,
      'authentication_error',
      'missing_api_key',
      'Missing API key. Send it as "Authorization: Bearer cc_live_sk_…" (or a cc_test_sk_ key for the sandbox).',
    ),
  invalidKey: () =>
    new GatewayError(
      401,
      'authentication_error',
      'invalid_api_key',
      'Invalid API key. Check the key, or create a new one in the dashboard.',
    ),
  tooManyInvalidKeys: (retryAfterSeconds: number) =>
    new GatewayError(
      429,
      'rate_limit_error',
      'too_many_invalid_keys',
      `Too many invalid API keys were sent from this address, so new keys from it are not being checked for now. Try again in ${retryAfterSeconds} ${retryAfterSeconds === 1 ? 'second' : 'seconds'}.`,
      { retryAfterSeconds },
    ),
  revokedKey: () => new GatewayError(401, 'authentication_error', 'api_key_revoked', 'This API key has been revoked.'),
  expiredKey: () => new GatewayError(401, 'authentication_error', 'api_key_expired', 'This API key has expired.'),
  noApiPermission: () =>
    new GatewayError(
      403,
      'permission_error',
      'insufficient_permissions',
      'This API key does not have the "api" permission needed for /v1.',
    ),
  unknownModel: (model: string) =>
    new GatewayError(
      404,
      'not_found_error',
      'model_not_found',
      `The model '${model}' does not exist. GET /v1/models lists the models served.`,
      {
        param: 'model',
      },
    ),
  /** `response_format` asks for JSON output that no model the request may be served by can give. */
  unsupportedResponseFormat: (format: StructuredFormat, models: readonly ModelInfo[]) => {
    const named = models.map((model) => model.id).join(', ');
    const serving = MODELS.filter((model) => model.responseFormats.includes(format)).map((model) => model.id);
    return new GatewayError(
      400,
      'invalid_request_error',
      'unsupported_parameter',
      `response_format '${format}' is not supported by ${named || 'the requested model'}. Models that support it: ${serving.join(', ')}.`,
      { param: 'response_format' },
    );
  },
  providerNotConfigured: (detail: string) =>
    new GatewayError(400, 'invalid_request_error', 'provider_not_configured', detail, { param: 'model' }),
  noHealthyTarget: (retryAfterSeconds: number) =>
    new GatewayError(
      503,
      'upstream_error',
      'no_healthy_provider',
      'Every provider for this request is failing right now (circuit open). Retry shortly.',
      { retryAfterSeconds },
    ),
};
