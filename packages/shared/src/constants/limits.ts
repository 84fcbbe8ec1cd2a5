/** The spec's business constants (section 9), defined once. */
export const TEMPERATURE = { min: 0, max: 2, default: 1 } as const;
export const STREAM_DEFAULT = false;

export const TIMEOUTS_MS = {
  authenticatedClient: 30_000,
  publicClient: 10_000,
  healthRefresh: 60_000,
  copyConfirmation: 2_000,
  demoSsoCallbackDelay: 1_500,
  oidcSuccessRedirect: 2_000,
  toast: 4_000,
  oidcRedirectToast: 2_000,
} as const;

/** Days of uptime history on the status page (and behind the uptime the support centre shows). */
export const STATUS_HISTORY_DAYS = 90;

export const USAGE_BAR = { warnAbovePercent: 70, dangerAbovePercent: 90 } as const;
export const DEFAULT_TOKEN_LIMIT = 1_000_000;

export const KEY_PREFIX = { live: 'cc_live_sk_', test: 'cc_test_sk_' } as const;
export const MASK = {
  onboarding: { head: 8, tail: 4 },
  apiKeys: { head: 16, tail: 4 },
} as const;

export const OVERAGE_USD_PER_1K_TOKENS = 0.05;
export const CHARS_PER_TOKEN = 4;

export const SUPPORT = {
  email: 'support@conductor.dev',
  hours: 'Mon-Fri 9AM-6PM EST',
  responseTime: 'within 24 hours',
} as const;

export const PASSWORD_MAX_LENGTH = 128;

/** The seeded demo account shown in the login page's demo-credentials box (DEMO_ACCOUNT=off removes it). */
export const DEMO_CREDENTIALS = { email: 'demo@conductor.dev', password: 'ConductorDemo1', name: 'Demo User' } as const;
