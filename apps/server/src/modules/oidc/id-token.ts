import { timingSafeEqual } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, errors, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { AppError } from '../../lib/errors.ts';
import { TENANT_PLACEHOLDER } from './discovery.ts';

/** Asymmetric algorithms only: `none` and the HMAC family (keyed with a public client secret) are refused. */
export const ID_TOKEN_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
const CLOCK_TOLERANCE_SECONDS = 60;
const TENANT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface IdTokenExpectations {
  /** The issuer, or a multi-tenant template containing {tenantid}. */
  issuer: string;
  audience: string;
  nonce: string;
  keys: JWTVerifyGetKey;
  now: number;
}

const refused = (reason: string) => new AppError('bad_request', `Sign-in could not be verified: ${reason}.`);

/**
 * OpenID Connect Core 1.0 section 3.1.3.7: signature (JWKS), iss, aud (and azp), exp/iat,
 * and the nonce we sent. Returns the verified claims.
 */
export async function verifyIdToken(idToken: string, expected: IdTokenExpectations): Promise<JWTPayload> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(idToken);
  } catch {
    throw refused('the ID token is malformed');
  }
  if (!header.alg || header.alg === 'none' || !ID_TOKEN_ALGORITHMS.includes(header.alg)) {
    throw refused(`the ID token uses a refused algorithm (${String(header.alg ?? 'none')})`);
  }
  const issuer = expectedIssuer(idToken, expected.issuer);
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(idToken, expected.keys, {
      issuer,
      audience: expected.audience,
      algorithms: ID_TOKEN_ALGORITHMS,
      currentDate: new Date(expected.now),
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      requiredClaims: ['sub', 'iat', 'exp'],
    }));
  } catch (error) {
    throw refused(describeJoseError(error));
  }
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (audiences.length > 1 && payload.azp !== expected.audience) throw refused('the ID token was issued to another client');
  if (typeof payload.nonce !== 'string' || !equalStrings(payload.nonce, expected.nonce)) throw refused('the ID token nonce does not match');
  return payload;
}

/** Microsoft multi-tenant: the issuer is the template with the token's own tenant id. */
function expectedIssuer(idToken: string, issuer: string): string {
  if (!issuer.includes(TENANT_PLACEHOLDER)) return issuer;
  let tenant: unknown;
  try {
    tenant = decodeJwt(idToken).tid;
  } catch {
    throw refused('the ID token is malformed');
  }
  if (typeof tenant !== 'string' || !TENANT_ID.test(tenant)) throw refused('the ID token has no valid tenant');
  return issuer.replace(TENANT_PLACEHOLDER, tenant);
}

function describeJoseError(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'the ID token has expired';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'the ID token signature is invalid';
  if (error instanceof errors.JWKSNoMatchingKey) return 'the ID token was not signed by the provider';
  if (error instanceof errors.JOSEAlgNotAllowed) return 'the ID token uses a refused algorithm';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return 'the ID token comes from another issuer';
    if (error.claim === 'aud') return 'the ID token was issued to another client';
    if (error.claim === 'iat' || error.claim === 'nbf') return 'the ID token is not valid yet';
    return `the ID token claim "${error.claim}" is invalid`;
  }
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return "the provider's signing keys could not be read";
  return 'the ID token is invalid';
}

function equalStrings(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
