import { randomBytes } from 'node:crypto';

/**
 * The demo issuer's identities. Each browser that consents gets its own demo identity
 * (kept by the issuer's session), so demo accounts are private rather than one shared login.
 * Identities are stateless: the subject encodes everything the claims need.
 */
const SUBJECT = /^demo-[0-9a-f]{16}$/;
export const DEMO_IDENTITY_NAME = 'Demo OIDC User';
export const DEMO_EMAIL_DOMAIN = 'demo-oidc.conductor.dev';

export function newDemoSubject(): string {
  return `demo-${randomBytes(8).toString('hex')}`;
}

export function isDemoSubject(subject: string): boolean {
  return SUBJECT.test(subject);
}

export function demoClaims(subject: string) {
  return { sub: subject, name: DEMO_IDENTITY_NAME, email: `${subject}@${DEMO_EMAIL_DOMAIN}`, email_verified: true };
}
