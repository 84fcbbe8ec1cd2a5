import { z } from 'zod';
import { MESSAGES } from '../constants/messages.ts';
import { PROVIDER_IDS, type ProviderId } from '../constants/providers.ts';
import { PublicUser } from './auth.ts';

/** Keys are printable ASCII without spaces; the spec's rules say nothing more for these three. */
const PRINTABLE = /^[\x21-\x7e]+$/;
export const KEY_CHARACTERS = 'Keys contain only printable characters, without spaces';

/** The spec's provider-key format rules (section 5), one per provider. */
export const PROVIDER_KEY_RULES: Record<ProviderId, z.ZodType<string>> = {
  openai: z
    .string()
    .trim()
    .max(512)
    .regex(/^sk-[A-Za-z0-9]+$/, MESSAGES.providerKeys.openai),
  anthropic: z
    .string()
    .trim()
    .max(512)
    .regex(/^sk-ant-[A-Za-z0-9_-]+$/, MESSAGES.providerKeys.anthropic),
  google: z
    .string()
    .trim()
    .max(512)
    .regex(/^AIza[A-Za-z0-9_-]+$/, MESSAGES.providerKeys.google),
  azure: z.string().trim().min(10, MESSAGES.providerKeys.azure).max(512).regex(PRINTABLE, KEY_CHARACTERS),
  mistral: z.string().trim().min(10, MESSAGES.providerKeys.mistral).max(512).regex(PRINTABLE, KEY_CHARACTERS),
  cohere: z.string().trim().min(10, MESSAGES.providerKeys.cohere).max(512).regex(PRINTABLE, KEY_CHARACTERS),
};

export const AT_LEAST_ONE_PROVIDER_KEY = 'Enter at least one provider key, or go back and choose Hosted Service.';

/** An optional key: blank means "not provided"; anything else must match the provider's rule. */
const optionalKey = (provider: ProviderId) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), PROVIDER_KEY_RULES[provider].optional());

/** The six optional provider keys, each checked by its rule (the form's schema). */
export const ProviderKeysFields = z
  .object({
    openai: optionalKey('openai'),
    anthropic: optionalKey('anthropic'),
    google: optionalKey('google'),
    azure: optionalKey('azure'),
    mistral: optionalKey('mistral'),
    cohere: optionalKey('cohere'),
  })
  .strict();

/** Onboarding step 2 (bring your own keys): at least one of the six keys. */
export const ProviderKeysInput = ProviderKeysFields.refine((keys) => PROVIDER_IDS.some((provider) => keys[provider] !== undefined), {
  message: AT_LEAST_ONE_PROVIDER_KEY,
});
export type ProviderKeysInput = z.infer<typeof ProviderKeysInput>;
/** The form's raw values (strings, possibly blank). */
export type ProviderKeysForm = Record<ProviderId, string>;

export const OnboardingMode = z.enum(['hosted', 'byo-keys']);
export type OnboardingMode = z.infer<typeof OnboardingMode>;

export const CompleteOnboardingInput = z.object({ mode: OnboardingMode }).strict();
export type CompleteOnboardingInput = z.infer<typeof CompleteOnboardingInput>;

export const UserResponse = z.object({ user: PublicUser });
export type UserResponse = z.infer<typeof UserResponse>;
