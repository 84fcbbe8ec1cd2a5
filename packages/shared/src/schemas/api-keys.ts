import { z } from 'zod';
import { readableLabel } from './fields.ts';

export const API_KEY_ENVIRONMENTS = ['live', 'test'] as const;
export const ApiKeyEnvironment = z.enum(API_KEY_ENVIRONMENTS);
export const API_KEY_PERMISSION_IDS = ['api', 'admin'] as const;
export const ApiKeyPermissionId = z.enum(API_KEY_PERMISSION_IDS);
export type ApiKeyPermissionId = z.infer<typeof ApiKeyPermissionId>;
export const API_KEY_PERMISSION_LABELS: Record<ApiKeyPermissionId, string> = { api: 'API Access', admin: 'Admin Access' };
/** Expiry choices offered by the create form, in days (null = never). */
export const API_KEY_EXPIRY_DAYS = [7, 30, 90, 365] as const;
export const MAX_ACTIVE_API_KEYS = 50;
/**
 * The create form's and the server's refusals of a permission set. Admin Access alone would make
 * a key that the gateway refuses on every call (403 insufficient_permissions): API Access is required.
 */
export const API_KEY_PERMISSION_MESSAGES = {
  noneSelected: 'Select at least one permission',
  apiRequired: 'API Access is required: without it the key cannot call the API',
} as const;

/** An unpaired UTF-16 surrogate (`\p{Cs}` with the `u` flag matches only those): stored, it would turn into U+FFFD. */
const UNPAIRED_SURROGATE = /\p{Cs}/u;

export const ApiKeyName = z
  .string({ error: 'Key name is required' })
  .trim()
  .min(1, 'Key name is required')
  .max(64, 'Key name must be at most 64 characters')
  .refine(...readableLabel('Key name'))
  .refine((value) => !UNPAIRED_SURROGATE.test(value), {
    message: 'Key name contains an invalid character (a broken emoji or symbol): retype it',
  });

export const CreateApiKeyInput = z
  .object({
    name: ApiKeyName,
    environment: ApiKeyEnvironment,
    permissions: z
      .array(ApiKeyPermissionId)
      .min(1, API_KEY_PERMISSION_MESSAGES.noneSelected)
      .max(10)
      .refine((permissions) => permissions.length === 0 || permissions.includes('api'), API_KEY_PERMISSION_MESSAGES.apiRequired)
      .transform((permissions) => [...new Set(permissions)]),
    expiresInDays: z.number().int().min(1).max(365).nullable().optional(),
  })
  .strict();
export type CreateApiKeyInput = z.input<typeof CreateApiKeyInput>;

export const UpdateApiKeyInput = z.object({ name: ApiKeyName }).strict();
export type UpdateApiKeyInput = z.infer<typeof UpdateApiKeyInput>;

export const ApiKeyStatus = z.enum(['active', 'revoked', 'expired']);
export type ApiKeyStatus = z.infer<typeof ApiKeyStatus>;

export const ApiKeyView = z.object({
  id: z.string(),
  name: z.string(),
  environment: ApiKeyEnvironment,
  /** First 16 + last 4 characters. */
  masked: z.string(),
  permissions: z.array(ApiKeyPermissionId),
  status: ApiKeyStatus,
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  /** Why this key cannot be renamed or revoked (the shared demo account's sample keys); absent otherwise. */
  lockedReason: z.string().optional(),
});
export type ApiKeyView = z.infer<typeof ApiKeyView>;

export const ApiKeyList = z.object({ keys: z.array(ApiKeyView) });
export type ApiKeyList = z.infer<typeof ApiKeyList>;

/** Returned once, at creation: the only time the full key is ever shown. */
export const CreatedApiKey = z.object({ key: z.string(), apiKey: ApiKeyView });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const ApiKeyIdParams = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'Invalid key id'),
});
