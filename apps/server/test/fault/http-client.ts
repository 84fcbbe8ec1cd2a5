/**
 * A small HTTP client for tests that talk to a server process over the network: a cookie jar
 * (path-scoped, honours deletion), JSON and multipart bodies, and a chosen source address.
 *
 * Every 127.x.y.z address is this machine, so a client can bind its own loopback address:
 * per-IP limits (sign-in, registration, tickets, waitlist) then count that client alone, and
 * its counters can be found and removed afterwards.
 */
import { randomBytes } from 'node:crypto';
import { Agent, type IncomingHttpHeaders, request as httpRequest } from 'node:http';

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json<T = Record<string, unknown>>(): T;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a Buffer or string as is. */
  body?: unknown;
  timeoutMs?: number;
}

/** A random loopback address other than 127.0.0.1 (the server's). */
export function randomLoopback(): string {
  const [a = 0, b = 0, c = 0] = randomBytes(3);
  return `127.${1 + (a % 250)}.${b}.${1 + (c % 250)}`;
}

export class CookieJar {
  readonly #cookies = new Map<string, { value: string; path: string }>();

  store(setCookie: string[] | string | undefined): void {
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      const cookiePath = attributes.find((attribute) => /^path=/i.test(attribute))?.slice(5) ?? '/';
      const expired =
        value === '' ||
        attributes.some((attribute) => /^max-age=0$/i.test(attribute)) ||
        attributes.some((attribute) => /^expires=/i.test(attribute) && Date.parse(attribute.slice(8)) <= Date.now());
      const key = `${name}\u0000${cookiePath}`;
      if (expired) this.#cookies.delete(key);
      else this.#cookies.set(key, { value, path: cookiePath });
    }
  }

  header(requestPath: string): string {
    const pathname = requestPath.split('?')[0] ?? '/';
    return [...this.#cookies.entries()]
      .filter(([, cookie]) => pathname === cookie.path || pathname.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`))
      .map(([key, cookie]) => `${key.split('\u0000')[0]}=${cookie.value}`)
      .join('; ');
  }

  get(name: string): string | undefined {
    for (const [key, cookie] of this.#cookies) if (key.split('\u0000')[0] === name) return cookie.value;
    return undefined;
  }

  set(name: string, value: string, cookiePath = '/'): void {
    this.#cookies.set(`${name}\u0000${cookiePath}`, { value, path: cookiePath });
  }

  clear(): void {
    this.#cookies.clear();
  }
}

export interface ClientOptions {
  /** Where the requests go: `http://127.0.0.1:<port>`. */
  origin: string;
  /** The Host header (and Origin of state-changing calls), e.g. a load balancer's public host. */
  host?: string;
  /** The source address; a fresh random loopback address by default. */
  localAddress?: string;
}

/** One "browser": its own address, cookies and keep-alive connections. */
export class HttpClient {
  readonly jar = new CookieJar();
  readonly localAddress: string;
  origin: string;
  readonly host: string;
  readonly #agent: Agent;

  constructor(options: ClientOptions) {
    this.origin = options.origin;
    this.host = options.host ?? new URL(options.origin).host;
    this.localAddress = options.localAddress ?? randomLoopback();
    this.#agent = new Agent({ keepAlive: true, maxSockets: 16 });
  }

  /** The same cookies and address, aimed at another instance (as a load balancer would). */
  retarget(origin: string): this {
    this.origin = origin;
    return this;
  }

  async request(requestPath: string, options: RequestOptions = {}): Promise<HttpResponse> {
    const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
    const headers: Record<string, string> = { host: this.host, ...options.headers };
    const cookie = this.jar.header(requestPath);
    if (cookie && !('cookie' in headers)) headers.cookie = cookie;
    if (method !== 'GET' && method !== 'HEAD' && !('origin' in headers)) headers.origin = `http://${this.host}`;
    let payload: Buffer | undefined;
    if (options.body !== undefined) {
      if (Buffer.isBuffer(options.body)) payload = options.body;
      else if (typeof options.body === 'string') payload = Buffer.from(options.body);
      else {
        payload = Buffer.from(JSON.stringify(options.body));
        headers['content-type'] ??= 'application/json';
      }
      headers['content-length'] = String(payload.length);
    }
    const target = new URL(requestPath, this.origin);
    const response = await new Promise<HttpResponse>((resolve, reject) => {
      const outgoing = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: `${target.pathname}${target.search}`,
          method,
          headers,
          agent: this.#agent,
          localAddress: this.localAddress,
          timeout: options.timeoutMs ?? 30_000,
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', reject);
          incoming.on('aborted', () => reject(new Error('response aborted')));
          incoming.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({
              status: incoming.statusCode ?? 0,
              headers: incoming.headers,
              text,
              json: <T>() => JSON.parse(text) as T,
            });
          });
        },
      );
      outgoing.on('timeout', () => outgoing.destroy(new Error(`timeout after ${options.timeoutMs ?? 30_000} ms`)));
      outgoing.on('error', reject);
      outgoing.end(payload);
    });
    this.jar.store(response.headers['set-cookie']);
    return response;
  }

  get(requestPath: string, headers?: Record<string, string>): Promise<HttpResponse> {
    return this.request(requestPath, { method: 'GET', ...(headers ? { headers } : {}) });
  }

  post(requestPath: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResponse> {
    return this.request(requestPath, { method: 'POST', body: body ?? {}, ...(headers ? { headers } : {}) });
  }

  close(): void {
    this.#agent.destroy();
  }
}

/** A name or file name in a multipart header, escaped as browsers do (HTML spec: `"` → %22, CR → %0D, LF → %0A). */
export const multipartName = (name: string) => name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/** A multipart/form-data body (text fields and files), as a browser's FormData would send it. */
export function multipart(
  fields: Record<string, string>,
  files: { field: string; filename: string; contentType: string; data: Buffer }[] = [],
): { body: Buffer; contentType: string } {
  const boundary = `----conductor${randomBytes(12).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${multipartName(name)}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${multipartName(file.field)}"; filename="${multipartName(file.filename)}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A tiny valid PNG (1×1), for ticket attachments. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
