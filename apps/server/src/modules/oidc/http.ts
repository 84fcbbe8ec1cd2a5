import type { z } from 'zod';
import { AppError } from '../../lib/errors.ts';

const TIMEOUT_MS = 10_000;
const MAX_BODY_BYTES = 512 * 1024;

/**
 * One HTTP call to a sign-in provider: time-limited, no redirects followed, JSON answer
 * size-limited. Failures become a clear AppError naming what could not be fetched.
 */
export async function readJson(fetcher: typeof fetch, url: string, init: RequestInit, what: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetcher(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch {
    throw new AppError('bad_request', `Could not reach the sign-in provider for ${what}. Please try again.`);
  }
  const text = await response.text();
  if (text.length > MAX_BODY_BYTES) throw new AppError('bad_request', `The sign-in provider sent an oversized answer for ${what}.`);
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const error = body as { error?: unknown; error_description?: unknown } | undefined;
    const reason =
      typeof error?.error_description === 'string'
        ? error.error_description
        : typeof error?.error === 'string'
          ? error.error
          : `HTTP ${response.status}`;
    throw new ProviderRefusal(
      `The sign-in provider refused ${what}: ${reason}`,
      typeof error?.error === 'string' ? error.error : undefined,
    );
  }
  if (body === undefined) throw new AppError('bad_request', `The sign-in provider sent an unreadable answer for ${what}.`);
  return body;
}

/**
 * A provider's answer read with `schema`; one that does not fit is the same clear refusal as an
 * unreadable one (not a ZodError, which would be a 500).
 */
export function parseAnswer<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new AppError('bad_request', `The sign-in provider sent an unreadable answer for ${what}.`);
  return parsed.data;
}

/** The provider answered with an OAuth error (e.g. `invalid_grant` for a replayed code). */
export class ProviderRefusal extends AppError {
  readonly oauthError: string | undefined;
  constructor(message: string, oauthError: string | undefined) {
    super('bad_request', message.slice(0, 300));
    this.oauthError = oauthError;
  }
}
