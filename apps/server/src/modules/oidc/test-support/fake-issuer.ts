import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT, UnsecuredJWT } from 'jose';

/** How the fake issuer's next ID token is broken (each maps to one relying-party check). */
export type IdTokenMode = 'ok' | 'bad-signature' | 'alg-none' | 'wrong-aud' | 'wrong-iss' | 'expired' | 'wrong-nonce';

export interface FakeIssuerOptions {
  clientId: string;
  clientSecret: string;
  /** Microsoft-style multi-tenant: discovery names `{tenantid}`, tokens carry `tid`. */
  tenantId?: string;
  /** Extra claims for the ID token (or the GitHub user). */
  claims?: Record<string, unknown>;
}

type SigningKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

interface PendingCode {
  clientId: string;
  redirectUri: string;
  nonce: string | null;
  codeChallenge: string;
  used: boolean;
}

/**
 * A small OpenID Connect provider (and GitHub OAuth look-alike) on 127.0.0.1 for tests:
 * discovery, JWKS, an authorize endpoint that approves at once, a token endpoint that checks
 * client credentials, redirect URI, PKCE and single use, and ID tokens broken on request.
 */
export class FakeIssuer {
  readonly options: FakeIssuerOptions;
  mode: IdTokenMode = 'ok';
  subject = `user-${randomBytes(4).toString('hex')}`;
  /** Replaces the discovery document's fields (e.g. `{ token_endpoint: undefined }` for a malformed one). */
  discoveryOverride: Record<string, unknown> = {};
  /** The authorization requests received, for assertions on their parameters. */
  readonly authorizeRequests: URLSearchParams[] = [];
  #server: Server | undefined;
  #keys: { privateKey: SigningKey; publicJwk: JWK } | undefined;
  #otherKey: SigningKey | undefined;
  #codes = new Map<string, PendingCode>();
  #tokens = new Set<string>();
  url = '';

  constructor(options: FakeIssuerOptions) {
    this.options = options;
  }

  /** The issuer identifier as configured in env (Microsoft: the `common` form). */
  get issuer(): string {
    return this.options.tenantId ? `${this.url}/common/v2.0` : this.url;
  }

  /** What the ID token's iss says. */
  get tokenIssuer(): string {
    return this.options.tenantId ? `${this.url}/${this.options.tenantId}/v2.0` : this.url;
  }

  async start(): Promise<this> {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    this.#keys = { privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' } };
    this.#otherKey = (await generateKeyPair('RS256')).privateKey;
    this.#server = createServer((request, response) => {
      this.#handle(request)
        .then(({ status, body, headers }) => {
          response.writeHead(status, { 'content-type': 'application/json', ...headers });
          response.end(body === undefined ? '' : JSON.stringify(body));
        })
        .catch((error: unknown) => {
          response.writeHead(500, { 'content-type': 'text/plain' });
          response.end(String(error));
        });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.#server?.close(() => resolve()));
  }

  async #handle(request: IncomingMessage): Promise<{ status: number; body?: unknown; headers?: Record<string, string> }> {
    const url = new URL(request.url ?? '/', this.url);
    const path = url.pathname.replace(/^\/common\/v2\.0/, '');
    if (request.method === 'GET' && path === '/.well-known/openid-configuration') {
      const issuer = this.options.tenantId ? `${this.url}/{tenantid}/v2.0` : this.url;
      return {
        status: 200,
        body: {
          issuer,
          authorization_endpoint: `${this.url}/authorize`,
          token_endpoint: `${this.url}/token`,
          jwks_uri: `${this.url}/jwks`,
          ...this.discoveryOverride,
        },
      };
    }
    if (request.method === 'GET' && path === '/jwks') return { status: 200, body: { keys: [this.#keys!.publicJwk] } };
    if (request.method === 'GET' && (path === '/authorize' || path === '/login/oauth/authorize')) return this.#authorize(url.searchParams);
    if (request.method === 'POST' && path === '/token') return this.#token(request, new URLSearchParams(await readBody(request)));
    if (request.method === 'POST' && path === '/login/oauth/access_token')
      return this.#githubToken(new URLSearchParams(await readBody(request)));
    if (request.method === 'GET' && path === '/user') return this.#githubApi(request, 'user');
    if (request.method === 'GET' && path === '/user/emails') return this.#githubApi(request, 'emails');
    return { status: 404, body: { error: 'not_found' } };
  }

  #authorize(params: URLSearchParams) {
    this.authorizeRequests.push(params);
    const redirectUri = params.get('redirect_uri') ?? '';
    if (params.get('client_id') !== this.options.clientId) return { status: 400, body: { error: 'invalid_client' } };
    if (params.get('code_challenge_method') !== 'S256' || !params.get('code_challenge'))
      return { status: 400, body: { error: 'invalid_request' } };
    const code = randomBytes(16).toString('base64url');
    this.#codes.set(code, {
      clientId: this.options.clientId,
      redirectUri,
      nonce: params.get('nonce'),
      codeChallenge: params.get('code_challenge') ?? '',
      used: false,
    });
    const target = new URL(redirectUri);
    target.searchParams.set('code', code);
    target.searchParams.set('state', params.get('state') ?? '');
    return { status: 302, headers: { location: target.toString() } };
  }

  /** Checks the code grant; undefined when valid, else the OAuth error. */
  #redeem(code: string, redirectUri: string | null, verifier: string | null): PendingCode | string {
    const pending = this.#codes.get(code);
    if (!pending || pending.used) return 'invalid_grant';
    pending.used = true;
    if (pending.redirectUri !== redirectUri) return 'invalid_grant';
    if (!verifier || createHash('sha256').update(verifier).digest('base64url') !== pending.codeChallenge) return 'invalid_grant';
    return pending;
  }

  async #token(request: IncomingMessage, form: URLSearchParams) {
    const expected = `Basic ${Buffer.from(`${encodeURIComponent(this.options.clientId)}:${encodeURIComponent(this.options.clientSecret)}`).toString('base64')}`;
    if (request.headers.authorization !== expected) return { status: 401, body: { error: 'invalid_client' } };
    if (form.get('grant_type') !== 'authorization_code') return { status: 400, body: { error: 'unsupported_grant_type' } };
    const pending = this.#redeem(form.get('code') ?? '', form.get('redirect_uri'), form.get('code_verifier'));
    if (typeof pending === 'string') return { status: 400, body: { error: pending, error_description: 'grant request is invalid' } };
    return {
      status: 200,
      body: { access_token: randomBytes(16).toString('hex'), token_type: 'Bearer', id_token: await this.#idToken(pending) },
    };
  }

  async #idToken(pending: PendingCode): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const claims = {
      sub: this.subject,
      email: `${this.subject}@example.test`,
      email_verified: true,
      name: 'Fake Person',
      nonce: this.mode === 'wrong-nonce' ? 'another-nonce' : pending.nonce,
      ...(this.options.tenantId ? { tid: this.options.tenantId } : {}),
      ...this.options.claims,
    };
    const issuer = this.mode === 'wrong-iss' ? 'http://127.0.0.1:1/not-the-issuer' : this.tokenIssuer;
    const audience = this.mode === 'wrong-aud' ? 'someone-else' : pending.clientId;
    const issuedAt = this.mode === 'expired' ? now - 3600 : now;
    if (this.mode === 'alg-none') {
      return new UnsecuredJWT(claims)
        .setIssuer(issuer)
        .setAudience(audience)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + 600)
        .encode();
    }
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + 600)
      .sign(this.mode === 'bad-signature' ? this.#otherKey! : this.#keys!.privateKey);
  }

  #githubToken(form: URLSearchParams) {
    if (form.get('client_id') !== this.options.clientId || form.get('client_secret') !== this.options.clientSecret) {
      return { status: 200, body: { error: 'incorrect_client_credentials' } };
    }
    const pending = this.#redeem(form.get('code') ?? '', form.get('redirect_uri'), form.get('code_verifier'));
    // GitHub answers a refused code with HTTP 200 and an error body.
    if (typeof pending === 'string')
      return { status: 200, body: { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' } };
    const token = `gho_${randomBytes(12).toString('hex')}`;
    this.#tokens.add(token);
    return { status: 200, body: { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' } };
  }

  #githubApi(request: IncomingMessage, what: 'user' | 'emails') {
    const token = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
    if (!this.#tokens.has(token)) return { status: 401, body: { message: 'Bad credentials' } };
    if (what === 'emails') {
      return {
        status: 200,
        body: [
          { email: `${this.subject}@users.noreply.example.test`, primary: false, verified: true },
          { email: `${this.subject}@example.test`, primary: true, verified: true },
        ],
      };
    }
    return {
      status: 200,
      body: {
        id: 4242,
        login: 'octo-fake',
        name: 'Octo Fake',
        email: null,
        avatar_url: 'https://avatars.example.test/u/4242',
        ...this.options.claims,
      },
    };
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
