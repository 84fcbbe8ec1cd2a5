import { z } from 'zod';
import { USER_PLANS } from '../constants/plans.ts';
import { PROVIDER_IDS } from '../constants/providers.ts';
import { MESSAGES } from '../constants/messages.ts';
import { AUTH_COPY } from './auth-copy.ts';
import { Email, LoginPassword, NewPassword, PersonName } from './fields.ts';

export const ProviderKeySummary = z.object({
  provider: z.enum(PROVIDER_IDS),
  masked: z.string(),
  active: z.boolean(),
  /** Azure OpenAI: the account's own resource the key belongs to (null: the server's). */
  endpoint: z.string().nullable(),
});

/** The signed-in user as the portal sees it (spec section 3, User). */
export const PublicUser = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  plan: z.enum(USER_PLANS),
  createdAt: z.string(),
  verified: z.boolean(),
  authMethod: z.enum(['email', 'oidc']),
  /** Whether the account has a password: every e-mail account, and a single sign-on account that set one through a reset. */
  hasPassword: z.boolean(),
  /** The shared demo account of the login page: changes that would reach other visitors are refused on it. */
  isDemo: z.boolean(),
  onboardingCompleted: z.boolean(),
  oidcProvider: z.string().nullable(),
  oidcClaims: z.record(z.string(), z.unknown()).nullable(),
  usage: z.object({
    /** This month's live tokens on the server's keys (what the quota counts; own-key tokens are not). */
    tokensUsed: z.number().int().nonnegative(),
    tokensLimit: z.number().int().nonnegative().nullable(),
    requestsToday: z.number().int().nonnegative(),
    requestsLimit: z.number().int().nonnegative(),
  }),
  apiKeys: z.array(ProviderKeySummary),
});
export type PublicUser = z.infer<typeof PublicUser>;

export const SessionResponse = z.discriminatedUnion('isAuthenticated', [
  z.object({ isAuthenticated: z.literal(false), user: z.null() }),
  z.object({ isAuthenticated: z.literal(true), user: PublicUser }),
]);
export type SessionResponse = z.infer<typeof SessionResponse>;

export const ApiErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

/** Sign-in (spec section 5, Login). `remember` asks for the longer session lifetime. */
export const LoginRequest = z.object({
  email: Email,
  password: LoginPassword,
  remember: z.boolean().default(false),
});
export type LoginRequest = z.infer<typeof LoginRequest>;
export type LoginFormValues = z.input<typeof LoginRequest>;

/** The registration payload (spec section 3): email, password, name. */
export const RegisterRequest = z.object({
  name: PersonName,
  email: Email,
  password: NewPassword,
});
export type RegisterRequest = z.infer<typeof RegisterRequest>;

/** Equal passwords, checked as soon as a confirmation has been typed (not only once every other field is valid). */
function confirmationMatches<S extends z.ZodType<{ password: string; confirmPassword: string }>>(schema: S): S {
  return schema.refine((values) => values.password === values.confirmPassword, {
    path: ['confirmPassword'],
    message: MESSAGES.register.passwordsDiffer,
    when: (payload) => {
      const value = payload.value as { password?: unknown; confirmPassword?: unknown } | undefined;
      return typeof value?.password === 'string' && typeof value.confirmPassword === 'string' && value.confirmPassword.length > 0;
    },
  });
}

const ConfirmPassword = z.string({ error: MESSAGES.register.confirmRequired }).min(1, MESSAGES.register.confirmRequired);

/** The Email Signup form (spec section 5, Register): the payload plus confirmation and terms. */
export const RegisterForm = confirmationMatches(
  z.object({
    name: PersonName,
    email: Email,
    password: NewPassword,
    confirmPassword: ConfirmPassword,
    acceptTerms: z.boolean({ error: MESSAGES.register.acceptTerms }).refine((accepted) => accepted, MESSAGES.register.acceptTerms),
  }),
);
export type RegisterFormValues = z.input<typeof RegisterForm>;
export type RegisterFormOutput = z.output<typeof RegisterForm>;

export const ForgotPasswordRequest = z.object({ email: Email });
export type ForgotPasswordRequest = z.infer<typeof ForgotPasswordRequest>;

/** Reset tokens are 32 random bytes, base64url. */
export const ResetToken = z
  .string()
  .min(16, AUTH_COPY.resetInvalid)
  .max(256, AUTH_COPY.resetInvalid)
  .regex(/^[A-Za-z0-9_-]+$/, AUTH_COPY.resetInvalid);

export const ResetPasswordRequest = z.object({ token: ResetToken, password: NewPassword });
export type ResetPasswordRequest = z.infer<typeof ResetPasswordRequest>;

/** Whether a reset link can still be used, asked when its page opens (before a password is typed). */
export const ResetLinkCheckRequest = z.object({ token: ResetToken });
export type ResetLinkCheckRequest = z.infer<typeof ResetLinkCheckRequest>;
export const ResetLinkCheckResponse = z.object({ usable: z.literal(true) });
export type ResetLinkCheckResponse = z.infer<typeof ResetLinkCheckResponse>;

/** An e-mail confirmation token: `<user id>.<expiry, Unix seconds>.<HMAC, base64url>`. */
export const VerifyEmailRequest = z.object({
  token: z
    .string()
    .max(300, AUTH_COPY.verifyEmailInvalid)
    .regex(/^[A-Za-z0-9-]+\.\d{1,12}\.[A-Za-z0-9_-]{43}$/, AUTH_COPY.verifyEmailInvalid),
});
export type VerifyEmailRequest = z.infer<typeof VerifyEmailRequest>;

export const ResetPasswordForm = confirmationMatches(z.object({ password: NewPassword, confirmPassword: ConfirmPassword }));
export type ResetPasswordFormValues = z.input<typeof ResetPasswordForm>;

/** Register, sign-in and single sign-on answer with the signed-in user. */
export const AuthUserResponse = z.object({ user: PublicUser });
export type AuthUserResponse = z.infer<typeof AuthUserResponse>;

export const AuthMessageResponse = z.object({ message: z.string() });
export type AuthMessageResponse = z.infer<typeof AuthMessageResponse>;
