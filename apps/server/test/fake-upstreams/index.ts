/**
 * Fake provider upstreams for end-to-end tests: a real HTTP server on 127.0.0.1 (random port)
 * that speaks one provider's wire format (JSON and SSE), replaying the documented fixtures from
 * `src/gateway/providers/<provider>/__fixtures__/`, with programmable behaviour per request.
 *
 *   const upstream = await startFakeUpstream({ provider: 'anthropic', behaviours: [{ kind: 'status', status: 500 }] });
 *   // configure ANTHROPIC_BASE_URL = upstream.baseUrl (with UPSTREAM_ALLOW_LOCAL in tests)
 *   ... first request gets a 500, later ones the default behaviour ('ok' unless set) ...
 *   upstream.requests[0].apiKey   // the key the gateway sent (BYOK assertions)
 *   upstream.setBehaviour({ kind: 'fixture', name: 'rate-limit.json' });  // every later request
 *   upstream.enqueue({ kind: 'reset' }, { kind: 'ok', text: 'from backup' }); // the next two requests
 *   await upstream.close();
 *
 * Options: `provider`; `behaviours` (a queue consumed one per request); `defaultBehaviour`
 * (after the queue; `{ kind: 'ok' }` by default); `apiKey` (when set, a request with another
 * key gets the provider's documented 401).
 *
 * Behaviours:
 * - `{ kind: 'ok', text?, delayMs? }`: 200 with the documented text response, or the stream
 *   transcript when the request asks for a stream; with `text`, the same shapes carry that text.
 * - `{ kind: 'status', status, body?, headers?, delayMs? }`: any status (e.g. 500, or 429 with
 *   `{ 'retry-after': '1' }`); an object body is sent as JSON, a string as text.
 * - `{ kind: 'fixture', name, delayMs? }`: replays an error fixture (`rate-limit.json`,
 *   `error-401.json`, `overloaded.json`, …) with its status, headers and body.
 * - `{ kind: 'hang' }`: reads the request and never answers (a timeout for the client).
 * - `{ kind: 'reset', delayMs? }`: destroys the socket without answering (connection reset).
 * - `{ kind: 'break-stream', afterEvents, text?, errorEvent? }`: starts a 200 stream, sends `afterEvents`
 *   SSE events, then destroys the socket (a JSON request gets half its body, then the reset); with
 *   `errorEvent` (a raw SSE block, e.g. Anthropic's `event: error`), sends it in a later write and
 *   ends the body instead, as a provider reporting a failure mid-stream does.
 * - `{ kind: 'slow-stream', intervalMs, text? }`: the stream with a pause before each event
 *   (a JSON request waits `intervalMs` once).
 *
 * The returned `FakeUpstream` has `baseUrl` (what to configure: `…/v1` for openai and mistral,
 * the origin for the others), `requests` (every request received, in order: method, url, headers,
 * parsed body, apiKey, stream flag, and `closedEarly` when the client went away before the
 * answer ended, e.g. after a client disconnect aborted it), `setBehaviour`, `enqueue`, `reset`
 * (clears requests and queue), and `close`.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProviderId } from '@conductor/shared';
import { errorFixture } from './fixtures.ts';
import { renderJson, renderStream } from './render.ts';
import { WIRES } from './wire.ts';

export type FakeBehaviour =
  | { kind: 'ok'; text?: string; delayMs?: number }
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number }
  | { kind: 'fixture'; name: string; delayMs?: number }
  | { kind: 'hang' }
  | { kind: 'reset'; delayMs?: number }
  | { kind: 'break-stream'; afterEvents: number; text?: string; errorEvent?: string }
  | { kind: 'slow-stream'; intervalMs: number; text?: string };

export interface RecordedRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The JSON body, or the raw text when it was not JSON. */
  body: unknown;
  /** The key from the provider's auth header. */
  apiKey: string | undefined;
  stream: boolean;
  behaviour: FakeBehaviour['kind'] | 'not-found' | 'unauthorized';
  /** The connection closed before the answer was complete (client abort, or a reset/break behaviour). */
  closedEarly: boolean;
}

export interface FakeUpstreamOptions {
  provider: ProviderId;
  behaviours?: FakeBehaviour[];
  defaultBehaviour?: FakeBehaviour;
  apiKey?: string;
}

export interface FakeUpstream {
  provider: ProviderId;
  baseUrl: string;
  requests: RecordedRequest[];
  setBehaviour(behaviour: FakeBehaviour): void;
  enqueue(...behaviours: FakeBehaviour[]): void;
  reset(): void;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function writeAndFlush(response: ServerResponse, chunk: string): Promise<void> {
  return new Promise((resolve) => response.write(chunk, () => resolve()));
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const type = typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json';
  response.writeHead(status, { 'content-type': type, ...headers, 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  const text = Buffer.concat(parts).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function stream(
  response: ServerResponse,
  blocks: string[],
  options: { intervalMs?: number; breakAfter?: number; errorEvent?: string },
): Promise<void> {
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  response.flushHeaders();
  for (const [index, block] of blocks.entries()) {
    if (options.breakAfter !== undefined && index >= options.breakAfter) {
      if (options.errorEvent === undefined) {
        response.socket?.destroy();
        return;
      }
      await sleep(20);
      if (!response.destroyed) response.end(options.errorEvent);
      return;
    }
    if (options.intervalMs) await sleep(options.intervalMs);
    if (response.destroyed) return;
    await writeAndFlush(response, block);
  }
  if (options.breakAfter !== undefined) response.socket?.destroy();
  else response.end();
}

async function answer(provider: ProviderId, behaviour: FakeBehaviour, isStream: boolean, response: ServerResponse): Promise<void> {
  if ('delayMs' in behaviour && behaviour.delayMs) await sleep(behaviour.delayMs);
  if (response.destroyed) return;
  switch (behaviour.kind) {
    case 'ok':
      if (isStream) return stream(response, renderStream(provider, behaviour.text), {});
      return sendJson(response, 200, renderJson(provider, behaviour.text));
    case 'status':
      return sendJson(
        response,
        behaviour.status,
        behaviour.body ?? { error: { message: `fake upstream status ${behaviour.status}` } },
        behaviour.headers,
      );
    case 'fixture': {
      const fixture = errorFixture(provider, behaviour.name);
      const { 'content-type': _type, ...headers } = fixture.headers;
      return sendJson(response, fixture.status, fixture.body, headers);
    }
    case 'hang':
      return;
    case 'reset':
      response.socket?.destroy();
      return;
    case 'break-stream': {
      if (isStream)
        return stream(response, renderStream(provider, behaviour.text), {
          breakAfter: behaviour.afterEvents,
          ...(behaviour.errorEvent !== undefined ? { errorEvent: behaviour.errorEvent } : {}),
        });
      const text = JSON.stringify(renderJson(provider, behaviour.text));
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      await writeAndFlush(response, text.slice(0, Math.floor(text.length / 2)));
      response.socket?.destroy();
      return;
    }
    case 'slow-stream':
      if (isStream) return stream(response, renderStream(provider, behaviour.text), { intervalMs: behaviour.intervalMs });
      await sleep(behaviour.intervalMs);
      if (!response.destroyed) sendJson(response, 200, renderJson(provider, behaviour.text));
      return;
  }
}

function unauthorizedFixture(provider: ProviderId) {
  return errorFixture(provider, provider === 'google' ? 'error-api-key.json' : 'error-401.json');
}

export async function startFakeUpstream(options: FakeUpstreamOptions): Promise<FakeUpstream> {
  const { provider } = options;
  const wire = WIRES[provider];
  const queue: FakeBehaviour[] = [...(options.behaviours ?? [])];
  let fallback: FakeBehaviour = options.defaultBehaviour ?? { kind: 'ok' };
  const requests: RecordedRequest[] = [];

  const server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const matched = request.method === 'POST' ? wire.match(url, body) : undefined;
      const apiKey = wire.apiKey(request.headers);
      const record: RecordedRequest = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body,
        apiKey,
        stream: matched?.stream ?? false,
        behaviour: 'not-found',
        closedEarly: false,
      };
      requests.push(record);
      response.on('close', () => {
        if (!response.writableFinished) record.closedEarly = true;
      });
      if (!matched)
        return sendJson(response, 404, { error: { message: `fake ${provider} upstream: no route for ${request.method} ${url.pathname}` } });
      if (options.apiKey !== undefined && apiKey !== options.apiKey) {
        record.behaviour = 'unauthorized';
        const fixture = unauthorizedFixture(provider);
        return sendJson(response, fixture.status, fixture.body);
      }
      const behaviour = queue.shift() ?? fallback;
      record.behaviour = behaviour.kind;
      await answer(provider, behaviour, matched.stream, response);
    })().catch(() => response.socket?.destroy());
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    provider,
    baseUrl: wire.baseUrl(`http://127.0.0.1:${port}`),
    requests,
    setBehaviour(behaviour) {
      fallback = behaviour;
    },
    enqueue(...behaviours) {
      queue.push(...behaviours);
    },
    reset() {
      requests.length = 0;
      queue.length = 0;
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
