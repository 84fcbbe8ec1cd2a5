import { SSO_PROVIDER_NAMES } from '@conductor/shared/schemas/sso';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { ProviderRefusal, parseAnswer, readJson } from './http.ts';
import type { SsoProvider } from './provider-types.ts';

/** GitHub is OAuth 2 without OpenID Connect: no ID token, so the identity comes from its user API. */
const GITHUB_SCOPE = 'read:user user:email';

const TokenAnswer = z.union([
  z.object({ access_token: z.string().min(1), token_type: z.string().optional() }),
  z.object({ error: z.string(), error_description: z.string().optional() }),
]);
const GithubUser = z.object({
  id: z.number().int(),
  login: z.string(),
  name: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  avatar_url: z.string().nullable().optional(),
});
const GithubEmails = z.array(z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() }));

export interface GithubClientOptions {
  authorizeUrl: string;
  tokenUrl: string;
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  fetch: typeof fetch;
}

/**
 * GitHub OAuth apps: https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps
 * (PKCE S256 is accepted there too). The identity is keyed by GitHub's numeric user id.
 */
export function createGithubClient(options: GithubClientOptions): SsoProvider {
  const issuer = new URL(options.authorizeUrl).origin;
  const apiHeaders = (token: string) => ({
    authorization: `Bearer ${token}`,
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
    'user-agent': 'Conductor',
  });
  return {
    id: 'github',
    name: SSO_PROVIDER_NAMES.github,
    issuer,
    configured: true,
    note: null,
    async authorizationUrl(params) {
      const url = new URL(options.authorizeUrl);
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: options.clientId,
        redirect_uri: params.redirectUri,
        scope: GITHUB_SCOPE,
        state: params.state,
        code_challenge: params.codeChallenge,
        code_challenge_method: 'S256',
        allow_signup: 'true',
      }).toString();
      return url.toString();
    },
    async exchange(params) {
      const answer = TokenAnswer.safeParse(
        await readJson(
          options.fetch,
          options.tokenUrl,
          {
            method: 'POST',
            headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({
              client_id: options.clientId,
              client_secret: options.clientSecret,
              code: params.code,
              redirect_uri: params.redirectUri,
              code_verifier: params.codeVerifier,
            }).toString(),
          },
          'the sign-in code',
        ),
      );
      if (!answer.success) throw new AppError('bad_request', 'Sign-in could not be verified: GitHub sent no access token.');
      // GitHub reports a refused code with HTTP 200 and an error body.
      if ('error' in answer.data) {
        throw new ProviderRefusal(
          `The sign-in provider refused the sign-in code: ${answer.data.error_description ?? answer.data.error}`,
          answer.data.error,
        );
      }
      const token = answer.data.access_token;
      const api = options.apiUrl.replace(/\/$/, '');
      const profile = 'your GitHub profile';
      const user = parseAnswer(GithubUser, await readJson(options.fetch, `${api}/user`, { headers: apiHeaders(token) }, profile), profile);
      const emails = GithubEmails.safeParse(
        await readJson(options.fetch, `${api}/user/emails`, { headers: apiHeaders(token) }, 'your GitHub emails').catch(() => []),
      );
      const list = emails.success ? emails.data : [];
      const chosen = list.find((entry) => entry.primary && entry.verified) ?? list.find((entry) => entry.verified);
      const email = chosen?.email ?? user.email ?? null;
      const subject = String(user.id);
      return {
        issuer,
        subject,
        email,
        emailVerified: Boolean(chosen),
        name: user.name ?? user.login,
        claims: {
          sub: subject,
          email_verified: Boolean(chosen),
          login: user.login,
          ...(user.avatar_url ? { avatar_url: user.avatar_url } : {}),
        },
      };
    },
  };
}
