import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { GatewayError } from '../gateway-error.ts';

export const HEADERS = {
  provider: 'x-conductor-provider',
  model: 'x-conductor-model',
  route: 'x-conductor-route',
  overhead: 'x-conductor-overhead-ms',
} as const;

/** What the gateway tells the caller about how a request was served. */
export interface ServedBy {
  provider?: string;
  model?: string;
  route?: string;
}

/** Milliseconds spent in the gateway itself: elapsed time less upstream (and retry-wait) time. */
export function overheadMs(reply: FastifyReply, upstreamMs: number): string {
  return Math.max(0, reply.elapsedTime - upstreamMs).toFixed(3);
}

export function servedHeaders(served: ServedBy, overhead: string): Record<string, string> {
  const headers: Record<string, string> = { [HEADERS.overhead]: overhead };
  if (served.provider) headers[HEADERS.provider] = served.provider;
  if (served.model) headers[HEADERS.model] = served.model;
  if (served.route) headers[HEADERS.route] = served.route;
  return headers;
}

const NOT_RETRIED: ReadonlySet<string> = new Set(['quota_exceeded', 'upstream_hosted_key_rejected', 'upstream_quota_exceeded']);

/** The OpenAI error envelope with its status, Retry-After and the routing headers. */
export function sendGatewayError(reply: FastifyReply, error: GatewayError, headers: Record<string, string>): FastifyReply {
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  // The official SDKs retry 429s and 5xx by default; neither a spent monthly quota, a provider
  // account out of credit, nor a provider key the server's operator must replace comes back in seconds.
  if (NOT_RETRIED.has(error.code)) reply.header('x-should-retry', 'false');
  return reply.code(error.status).headers(headers).send(error.toEnvelope());
}

/** Starts an SSE response on the raw socket (the reply is hijacked: Fastify no longer writes it). */
export function startEventStream(reply: FastifyReply, headers: Record<string, string>): ServerResponse {
  const response = reply.raw;
  const requestId = reply.getHeader('x-request-id');
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-content-type-options': 'nosniff',
    ...(requestId !== undefined ? { 'x-request-id': String(requestId) } : {}),
    ...headers,
  });
  return response;
}

export const SSE_DONE = 'data: [DONE]\n\n';

/**
 * The explicit end of a broken stream: an OpenAI-style error event (the official SDKs raise
 * `APIError` on it) and no `[DONE]`, so no client mistakes a truncated answer for a whole one.
 */
export function sseError(message: string, type: string, code: string): string {
  return `data: ${JSON.stringify({ error: { message, type, param: null, code } })}\n\n`;
}
