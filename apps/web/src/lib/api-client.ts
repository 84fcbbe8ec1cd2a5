import { TIMEOUTS_MS } from '@conductor/shared/constants/limits';
import { loadMessages } from './messages';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string> | undefined;
  /** The client already told the user (the server-error or session-expired toast): callers need not say it again. */
  readonly announced: boolean;
  constructor(status: number, code: string, message: string, fields?: Record<string, string>, announced = false) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.announced = announced;
  }
}

type UnauthorizedListener = () => void;
type ServerErrorListener = () => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();
const serverErrorListeners = new Set<ServerErrorListener>();

/** Central 401 handling: the auth layer subscribes and logs the user out. */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}
/** A signed-in session found ended (a 401, or the session check saying so): the app logs out with the spec's toast. */
export function notifyUnauthorized(): void {
  for (const listener of unauthorizedListeners) listener();
}

export function onServerError(listener: ServerErrorListener): () => void {
  serverErrorListeners.add(listener);
  return () => serverErrorListeners.delete(listener);
}

/**
 * What the client does with a failed answer before it throws: a 401 logs out (with the spec's
 * toast), a 5xx shows the server-error toast. For callers that cannot use `request` (an upload
 * with progress): returns whether the user was told, the `announced` of the ApiError to throw.
 */
export function announceFailure(status: number, options: Pick<RequestOptions, 'skipAuthHandling' | 'background'> = {}): boolean {
  const unauthorized = status === 401 && !options.skipAuthHandling;
  const serverError = status >= 500 && !options.background;
  if (unauthorized) notifyUnauthorized();
  if (serverError) for (const listener of serverErrorListeners) listener();
  return unauthorized || serverError;
}

interface RequestOptions {
  method?: string;
  body?: unknown;
  signal?: AbortSignal;
  /** Do not trigger the global 401 logout (e.g. the sign-in call itself). */
  skipAuthHandling?: boolean;
  /** A periodic background read whose page shows its own failure state: no global server-error toast. */
  background?: boolean;
}

async function request<T>(base: string, timeoutMs: number, path: string, options: RequestOptions = {}): Promise<T> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(`${base}${path}`, {
      method: options.method ?? 'GET',
      credentials: 'same-origin',
      headers: options.body !== undefined ? { 'content-type': 'application/json' } : {},
      body: options.body !== undefined ? JSON.stringify(options.body) : null,
      signal,
    });
  } catch (error) {
    if (timeout.aborted) throw new ApiError(0, 'timeout', 'The request timed out. Please try again.');
    throw new ApiError(0, 'network', error instanceof Error ? error.message : 'Network error');
  }
  const text = await response.text();
  const data = text ? safeJson(text) : undefined;
  if (!response.ok) {
    const body = (data ?? {}) as { error?: { code?: string; message?: string; fields?: Record<string, string> } };
    const announced = announceFailure(response.status, options);
    throw new ApiError(
      response.status,
      body.error?.code ?? String(response.status),
      response.status >= 500 ? (await loadMessages()).serverError : (body.error?.message ?? response.statusText),
      body.error?.fields,
      announced,
    );
  }
  return data as T;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The authenticated portal client: /api/v1, 30 s time-out, session cookie. */
export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('/api/v1', TIMEOUTS_MS.authenticatedClient, path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('/api/v1', TIMEOUTS_MS.authenticatedClient, path, { ...options, method: 'POST', body: body ?? {} }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('/api/v1', TIMEOUTS_MS.authenticatedClient, path, { ...options, method: 'PATCH', body: body ?? {} }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('/api/v1', TIMEOUTS_MS.authenticatedClient, path, { ...options, method: 'PUT', body: body ?? {} }),
  delete: <T>(path: string, options?: RequestOptions) =>
    request<T>('/api/v1', TIMEOUTS_MS.authenticatedClient, path, { ...options, method: 'DELETE' }),
};

/** The public client: /v1 on our own host, 10 s time-out, no authorisation. */
export const publicApi = {
  get: <T>(path: string, options?: RequestOptions) =>
    request<T>('/v1', TIMEOUTS_MS.publicClient, path, { ...options, skipAuthHandling: true }),
  post: <T>(path: string, body: unknown, options?: RequestOptions) =>
    request<T>('/v1', TIMEOUTS_MS.publicClient, path, { ...options, method: 'POST', body, skipAuthHandling: true }),
};
