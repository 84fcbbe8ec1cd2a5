import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/** A minimal cookie jar for inject(): path-scoped, honours deletion. */
export class CookieJar {
  readonly #cookies = new Map<string, { value: string; path: string }>();

  store(response: LightMyRequestResponse): void {
    const header = response.headers['set-cookie'];
    for (const line of Array.isArray(header) ? header : header ? [header] : []) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      const path = attributes.find((attribute) => /^path=/i.test(attribute))?.slice(5) ?? '/';
      const expired =
        attributes.some((attribute) => /^max-age=0$/i.test(attribute)) ||
        attributes.some((attribute) => /^expires=/i.test(attribute) && Date.parse(attribute.slice(8)) <= Date.now()) ||
        value === '';
      if (expired) this.#cookies.delete(name);
      else this.#cookies.set(name, { value, path });
    }
  }

  header(path: string): string {
    return [...this.#cookies.entries()]
      .filter(([, cookie]) => path === cookie.path || path.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`))
      .map(([name, cookie]) => `${name}=${cookie.value}`)
      .join('; ');
  }

  get(name: string): string | undefined {
    return this.#cookies.get(name)?.value;
  }
}

export const ORIGIN = 'http://127.0.0.1:8080';
const HOST = '127.0.0.1:8080';

export interface BrowserSecrets {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export function browserSecrets(): BrowserSecrets {
  return {
    state: randomBytes(32).toString('base64url'),
    nonce: randomBytes(32).toString('base64url'),
    codeVerifier: randomBytes(48).toString('base64url'),
  };
}

export const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** What the browser does against our server, through inject with a cookie jar. */
export class Browser {
  readonly app: FastifyInstance;
  readonly jar = new CookieJar();
  /** Each browser comes from its own address, so per-IP limits of one test never touch another's. */
  readonly ip = `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${1 + ((randomBytes(1)[0] ?? 0) % 250)}`;

  constructor(app: FastifyInstance) {
    this.app = app;
  }

  async request(method: 'GET' | 'POST', url: string, payload?: object): Promise<LightMyRequestResponse> {
    const target = new URL(url, ORIGIN);
    const response = await this.app.inject({
      method,
      url: `${target.pathname}${target.search}`,
      remoteAddress: this.ip,
      headers: {
        host: HOST,
        ...(method === 'POST' ? { origin: ORIGIN } : {}),
        cookie: this.jar.header(target.pathname),
      },
      ...(payload ? { payload } : {}),
    });
    this.jar.store(response);
    return response;
  }

  async start(provider: string, secrets: BrowserSecrets, overrides: Record<string, unknown> = {}) {
    return this.request('POST', '/api/v1/auth/oidc/start', {
      provider,
      state: secrets.state,
      nonce: secrets.nonce,
      codeChallenge: s256(secrets.codeVerifier),
      redirectUri: `${ORIGIN}/auth/callback`,
      ...overrides,
    });
  }

  async callback(provider: string, code: string, secrets: BrowserSecrets, overrides: Record<string, unknown> = {}) {
    return this.request('POST', '/api/v1/auth/oidc/callback', {
      provider,
      code,
      state: secrets.state,
      codeVerifier: secrets.codeVerifier,
      ...overrides,
    });
  }

  /** Consents at the embedded demo issuer (when asked); answers the redirect back to /auth/callback. */
  async consentAtDemoIssuer(authorizationUrl: string, choice: 'confirm' | 'abort' = 'confirm'): Promise<URL> {
    const authorize = await this.request('GET', authorizationUrl);
    if (authorize.statusCode !== 303) throw new Error(`authorization answered ${authorize.statusCode}: ${authorize.body.slice(0, 300)}`);
    const interaction = String(authorize.headers.location);
    // A browser that already consented (its issuer session holds the grant) goes straight back.
    if (interaction.startsWith(`${ORIGIN}/auth/callback`)) return new URL(interaction);
    const page = await this.request('GET', interaction);
    if (page.statusCode !== 200) throw new Error(`consent page answered ${page.statusCode}`);
    const decided = await this.request('POST', `${interaction}/${choice}`);
    const resumed = await this.request('GET', String(decided.headers.location));
    if (resumed.statusCode !== 303) throw new Error(`resume answered ${resumed.statusCode}: ${resumed.body.slice(0, 300)}`);
    return new URL(String(resumed.headers.location));
  }

  /** Follows an external (fake) issuer's authorize endpoint, which approves at once. */
  async authorizeAtExternal(authorizationUrl: string): Promise<URL> {
    const response = await fetch(authorizationUrl, { redirect: 'manual' });
    if (response.status !== 302) throw new Error(`authorize answered ${response.status}: ${await response.text()}`);
    return new URL(String(response.headers.get('location')));
  }

  async signedIn(): Promise<boolean> {
    const response = await this.request('GET', '/api/v1/auth/session');
    return response.json().isAuthenticated === true;
  }
}
