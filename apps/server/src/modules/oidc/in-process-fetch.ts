import type { FastifyInstance } from 'fastify';

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

/**
 * A `fetch` that reaches this very server through `inject()` instead of the network: the
 * relying party talks to the embedded demo issuer this way, so the code exchange works
 * behind any proxy or port mapping and never turns the Host header into an outbound URL.
 */
export function inProcessFetch(app: FastifyInstance, origin: string): typeof fetch {
  const expected = new URL(origin);
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.origin !== expected.origin) throw new TypeError(`in-process fetch only reaches ${expected.origin}`);
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    headers.host = url.host;
    if (url.protocol === 'https:') headers['x-forwarded-proto'] = 'https';
    const body = init?.body;
    const response = await app.inject({
      method: (init?.method ?? 'GET') as 'GET' | 'POST',
      url: `${url.pathname}${url.search}`,
      headers,
      ...(body === undefined || body === null ? {} : { payload: typeof body === 'string' ? body : String(body) }),
    });
    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (Array.isArray(value)) for (const item of value) responseHeaders.append(name, String(item));
      else if (value !== undefined) responseHeaders.set(name, String(value));
    }
    return new Response(NULL_BODY_STATUS.has(response.statusCode) ? null : response.rawPayload, {
      status: response.statusCode,
      headers: responseHeaders,
    });
  };
}
