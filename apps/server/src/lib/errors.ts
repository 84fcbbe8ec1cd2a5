/** One application error type; the error handler maps it to the right envelope and status. */
export type AppErrorCode =
  | 'bad_request'
  | 'validation_failed'
  | 'unauthorized'
  | 'session_expired'
  | 'forbidden'
  | 'reauthentication_required'
  | 'verification_link_other_account'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'quote_expired'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'internal';

const STATUS: Record<AppErrorCode, number> = {
  bad_request: 400,
  validation_failed: 400,
  unauthorized: 401,
  session_expired: 401,
  forbidden: 403,
  reauthentication_required: 403,
  verification_link_other_account: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  quote_expired: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
};

export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly statusCode: number;
  readonly fields: Record<string, string> | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: AppErrorCode, message: string, options: { fields?: Record<string, string>; retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.statusCode = STATUS[code];
    this.fields = options.fields;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
