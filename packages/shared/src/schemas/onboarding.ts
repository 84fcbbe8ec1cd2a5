import { z } from 'zod';
import { MESSAGES } from '../constants/messages.ts';
import type { ProviderId } from '../constants/providers.ts';
import { PublicUser } from './auth.ts';
import { ProviderKeyInput } from './settings.ts';

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

/** An optional key: blank means "not provided"; anything else must match the provider's rule. */
const optionalKey = (provider: ProviderId) =>
  z.preprocess((value) => (typeof value === 'string' && value.trim() === '' ? undefined : value), PROVIDER_KEY_RULES[provider].optional());

/**
 * The Azure OpenAI resource an Azure key is sent to (`https://<resource>.openai.azure.com`), checked
 * by Settings' rule; blank means "not provided": the key is then sent to the server's own resource.
 * The server checks it further as Settings does (https, Azure's hosts, no credentials or query).
 */
export const AzureEndpoint = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
  ProviderKeyInput.shape.endpoint,
);

/** The server's answer to a resource URL that passes the form's rule but is not an Azure resource (as in Settings). */
export const AZURE_ENDPOINT_REFUSED =
  'Enter your Azure OpenAI resource URL: https://<resource>.openai.azure.com (or .cognitiveservices.azure.com).';
export const AZURE_ENDPOINT_NEEDS_KEY = 'Enter the Azure OpenAI API key for this resource, or leave the resource URL empty.';

/** A resource URL is only where an Azure key is sent: one without the key is refused. */
export const azureEndpointWithoutKey = (values: { azure?: string | undefined; azureEndpoint?: string | undefined }): boolean =>
  (values.azureEndpoint?.trim() ?? '') !== '' && (values.azure?.trim() ?? '') === '';

/** The six optional provider keys, each checked by its rule, and the Azure key's optional resource URL. */
export const ProviderKeysFields = z
  .object({
    openai: optionalKey('openai'),
    anthropic: optionalKey('anthropic'),
    google: optionalKey('google'),
    azure: optionalKey('azure'),
    mistral: optionalKey('mistral'),
    cohere: optionalKey('cohere'),
    azureEndpoint: AzureEndpoint,
  })
  .strict();

/**
 * Onboarding step 2 (bring your own keys): every key optional, as the spec has it (none saved is
 * a plan whose requests fail until a key is added, which the summary and Settings say); a resource
 * URL only with the Azure key.
 */
export const ProviderKeysInput = ProviderKeysFields.refine((keys) => !azureEndpointWithoutKey(keys), {
  message: AZURE_ENDPOINT_NEEDS_KEY,
  path: ['azureEndpoint'],
});
export type ProviderKeysInput = z.infer<typeof ProviderKeysInput>;
/** The form's raw values (strings, possibly blank). */
export type ProviderKeysForm = Record<ProviderId, string> & { azureEndpoint: string };

export const OnboardingMode = z.enum(['hosted', 'byo-keys']);
export type OnboardingMode = z.infer<typeof OnboardingMode>;

export const CompleteOnboardingInput = z.object({ mode: OnboardingMode }).strict();
export type CompleteOnboardingInput = z.infer<typeof CompleteOnboardingInput>;

export const UserResponse = z.object({ user: PublicUser });
export type UserResponse = z.infer<typeof UserResponse>;
