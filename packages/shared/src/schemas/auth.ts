import { z } from 'zod';
import { USER_PLANS } from '../constants/plans.ts';
import { PROVIDER_IDS } from '../constants/providers.ts';

export const ProviderKeySummary = z.object({
  provider: z.enum(PROVIDER_IDS),
  masked: z.string(),
  active: z.boolean(),
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
  onboardingCompleted: z.boolean(),
  oidcProvider: z.string().nullable(),
  oidcClaims: z.record(z.string(), z.unknown()).nullable(),
  usage: z.object({
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
