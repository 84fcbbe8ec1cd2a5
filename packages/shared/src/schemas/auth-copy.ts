/**
 * Account and sign-on copy that the spec leaves to us (the spec's own strings live in
 * constants/messages.ts). Shared by the server's answers and the forms that show them.
 */
export const AUTH_COPY = {
  forgotPasswordSent:
    "If an account exists for that email, we've sent a link to reset your password. The link expires in 1 hour and works once.",
  resetDone: 'Your password has been reset. Sign in with your new password.',
  resetInvalid: 'This password reset link is invalid or has expired. Request a new one.',
  resetMissingToken: 'This page needs the link from your password reset email.',
  loginThrottled: (minutes: number) =>
    `Too many sign-in attempts. Please wait ${minutes} ${minutes === 1 ? 'minute' : 'minutes'} and try again.`,
  verifyEmailDone: 'Your email address is confirmed. Thank you!',
  verifyEmailInvalid:
    'This confirmation link is invalid or has expired, or your email address has changed since. Send a new link from your dashboard.',
  verifyEmailMissingToken: 'This page needs the link from your confirmation email.',
  verifyEmailSent: (email: string) => `We sent a confirmation link to ${email}. It works for 3 days.`,
  verifyEmailAlready: 'Your email address is already confirmed.',
  ssoReauthOtherAccount:
    'You signed in with an account other than the one you are changing, so nothing changed and you are still signed in as before. Sign in again with the identity this account uses.',
  ssoReauthSignedOut: 'Sign in to continue.',
  resetDoneReclaimedPlan:
    "Your password has been reset. This email address had not been confirmed, so the account's API keys, provider keys and routing default were removed, and its paid plan will not renew: whoever set them up had not proved it owns this address. We sent you a link to confirm it. Sign in with your new password.",
  resetDoneReclaimed:
    "Your password has been reset. This email address had not been confirmed, so the account's API keys, provider keys and routing default were removed: whoever set them up had not proved it owns this address. We sent you a link to confirm it. Sign in with your new password.",
  verifyEmailSignIn: 'Sign in to the account this link is for, and we will confirm its email address.',
  verifyEmailOtherAccount: 'This link is for another account. Sign out, then open it again.',
  ssoNotConfigured: (name: string) => `${name} sign-in is not configured on this server.`,
  ssoEmailInUse: 'An account with this email already exists. Sign in with your email and password instead.',
  ssoNoEmail: 'Your provider did not share an email address, so we could not create your account.',
  ssoEmailUnverified:
    'Your provider did not confirm that this email address is yours, so we could not create your account. Sign up with your email and a password instead.',
  ssoSessionLost: 'Your sign-in attempt expired or was started in another browser. Please try again.',
  ssoVerificationFailed: 'We could not verify your sign-in with the provider. Please try again.',
  ssoInsecureContext: 'Single sign-on needs a secure (https) connection.',
} as const;

/** The error code (403) of a confirmation link opened in another account's session (the message: `verifyEmailOtherAccount`). */
export const VERIFY_EMAIL_OTHER_ACCOUNT = 'verification_link_other_account';

/** An e-mail confirmation link lives this long. */
export const EMAIL_VERIFICATION_TTL_MS = 3 * 24 * 60 * 60 * 1000;

/** The password reset link lives this long (spec-free; decisions: "single-use, expiring"). */
export const PASSWORD_RESET_TTL_MS = 60 * 60 * 1000;
