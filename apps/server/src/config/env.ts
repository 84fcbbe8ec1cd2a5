import { isIP } from 'node:net';
import { z } from 'zod';
import { isLoopbackHost } from '../lib/loopback.ts';

const Port = z.coerce.number().int().min(0).max(65535);
const Url = (protocols: string[]) =>
  z.url().refine((value) => protocols.some((protocol) => value.startsWith(`${protocol}:`)), {
    message: `must start with ${protocols.map((protocol) => `${protocol}://`).join(' or ')}`,
  });

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === '' ? undefined : value));
const optionalUrl = optionalString.pipe(z.url().optional());

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY lists. */
const PROXY_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address, a CIDR block (`10.0.0.0/8`, `fd00::/8`) or a named range. */
function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * Which peers may set the client address through `X-Forwarded-For` (the address the login
 * throttle, the per-IP limits and the sessions list see). Off by default: the socket's address.
 * Behind a load balancer: its addresses or CIDR blocks (`10.0.0.0/8,loopback`). Neither "every
 * peer" nor a hop count is accepted: both would let a client that reaches the server directly
 * choose its address (Fastify ignores hop counts for that reason).
 */
const TrustProxy = optionalString.transform((value, context): string[] | undefined => {
  if (value === undefined || value === 'false') return undefined;
  const entries = value.split(',').map((entry) => entry.trim());
  const invalid = entries.filter((entry) => !isProxyEntry(entry));
  if (invalid.length > 0) {
    context.addIssue({
      code: 'custom',
      message: `expected the trusted proxies' addresses, CIDR blocks or loopback/linklocal/uniquelocal, comma-separated (not "every peer" nor a hop count, which would let clients choose their address); not ${invalid.map((entry) => `"${entry}"`).join(', ')}`,
    });
    return z.NEVER;
  }
  return entries;
});

/** The whole environment, parsed once at boot. Nothing else reads `process.env`. */
export const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: Port.default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./.data'),
  /** Where the embedded PGlite runs: a worker thread of its own, the main thread, or `auto` (worker with more than one CPU). */
  PGLITE_THREAD: z.enum(['auto', 'worker', 'main']).default('auto'),
  DATABASE_URL: Url(['postgres', 'postgresql'])
    .optional()
    .or(z.literal('').transform(() => undefined)),
  REDIS_URL: Url(['redis', 'rediss'])
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SITE_MODE: z.enum(['home', 'waitlist']).default('home'),
  PUBLIC_URL: z
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: TrustProxy,
  /** The public demo account (its credentials are shown on the sign-in page): on by default, except under NODE_ENV=production. */
  DEMO_ACCOUNT: z.enum(['on', 'off']).default('on'),
  SESSION_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  ENCRYPTION_KEY: optionalString.pipe(
    z
      .string()
      .regex(/^[0-9a-f]{64}$/i, 'must be 64 hex characters (32 bytes)')
      .optional(),
  ),
  SMTP_URL: Url(['smtp', 'smtps'])
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_FROM: z.string().default('Conductor <no-reply@conductor.dev>'),
  WEB_DIST_DIR: optionalString,
  HEALTH_CHECK_INTERVAL_MS: z.coerce.number().int().min(1_000).default(60_000),
  /** Records /status history; default on, except under NODE_ENV=test where it must be switched on. */
  HEALTH_CHECK_SCHEDULER: z.enum(['on', 'off']).optional(),
  METRICS_TOKEN: optionalString,
  /** A stop's whole budget, drain included: past it the process writes the usage it holds and exits with 1, cutting what is still open. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(1_000).max(600_000).default(25_000),
  /** After SIGTERM/SIGINT, how long `GET /readyz` answers 503 while requests are still served, before the listener closes. */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(300_000).default(0),
  // Hosted provider keys and base URLs (base URLs are overridable so tests aim at fake upstreams).
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalUrl,
  ANTHROPIC_API_KEY: optionalString,
  ANTHROPIC_BASE_URL: optionalUrl,
  GOOGLE_API_KEY: optionalString,
  GOOGLE_BASE_URL: optionalUrl,
  AZURE_OPENAI_API_KEY: optionalString,
  AZURE_OPENAI_BASE_URL: optionalUrl,
  AZURE_OPENAI_API_VERSION: z.string().default('2024-10-21'),
  MISTRAL_API_KEY: optionalString,
  MISTRAL_BASE_URL: optionalUrl,
  COHERE_API_KEY: optionalString,
  COHERE_BASE_URL: optionalUrl,
  /** Allows http:// and non-provider hosts as upstream base URLs; refused unless NODE_ENV=test. */
  UPSTREAM_ALLOW_LOCAL: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  // Gateway tuning: circuit breaker per upstream, usage batching; and the prefix of every Redis key the server writes.
  GATEWAY_BREAKER_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
  GATEWAY_BREAKER_COOLDOWN_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  GATEWAY_USAGE_FLUSH_MS: z.coerce.number().int().min(10).max(60_000).default(1_000),
  /**
   * Usage events per write: a full buffer flushes at once, and a backlog is written this many at a
   * time. Unset: 2,000 on PostgreSQL, 500 on the embedded PGlite (whose writes may run on the request thread).
   */
  GATEWAY_USAGE_BATCH: z.coerce.number().int().min(1).max(20_000).optional(),
  /** Prefixes every Redis key and channel of this deployment (limits, throttles, sign-on transactions), so several can share one Redis. */
  GATEWAY_REDIS_PREFIX: z.string().min(1).max(100).default('conductor:'),
  /** Distinct refused API keys per client address and minute before its uncached keys wait; 0 turns the guard off. */
  GATEWAY_KEY_LOOKUP_FAILURES: z.coerce.number().int().min(0).max(1_000_000).default(60),
  // Single sign-on providers, enabled by their client id and secret.
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  GOOGLE_ISSUER: z.url().default('https://accounts.google.com'),
  MICROSOFT_CLIENT_ID: optionalString,
  MICROSOFT_CLIENT_SECRET: optionalString,
  MICROSOFT_ISSUER: z.url().default('https://login.microsoftonline.com/common/v2.0'),
  GITHUB_CLIENT_ID: optionalString,
  GITHUB_CLIENT_SECRET: optionalString,
  GITHUB_AUTHORIZE_URL: z.url().default('https://github.com/login/oauth/authorize'),
  GITHUB_TOKEN_URL: z.url().default('https://github.com/login/oauth/access_token'),
  GITHUB_API_URL: z.url().default('https://api.github.com'),
});
export type Env = z.infer<typeof EnvSchema>;

export class ConfigError extends Error {
  readonly issues: string[];
  constructor(issues: string[]) {
    super(`Invalid configuration:\n${issues.map((issue) => `  - ${issue}`).join('\n')}`);
    this.name = 'ConfigError';
    this.issues = issues;
  }
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((issue) => {
        const name = issue.path.join('.') || '(environment)';
        const value = source[String(issue.path[0])];
        const shown = value === undefined || /SECRET|KEY|URL/.test(name) ? '' : ` (got "${value}")`;
        return `${name}: ${issue.message}${shown}`;
      }),
    );
  }
  if (result.data.SHUTDOWN_DRAIN_MS >= result.data.SHUTDOWN_GRACE_MS) {
    throw new ConfigError([
      `SHUTDOWN_DRAIN_MS: must be less than SHUTDOWN_GRACE_MS (${result.data.SHUTDOWN_GRACE_MS}), which includes it (got "${result.data.SHUTDOWN_DRAIN_MS}")`,
    ]);
  }
  if (result.data.UPSTREAM_ALLOW_LOCAL && result.data.NODE_ENV !== 'test') {
    throw new ConfigError(['UPSTREAM_ALLOW_LOCAL: only allowed when NODE_ENV=test']);
  }
  if (result.data.NODE_ENV === 'production') {
    // Anyone may sign in to the demo account: a production server seeds it only when asked to.
    if (source.DEMO_ACCOUNT === undefined) result.data.DEMO_ACCOUNT = 'off';
    const issues = productionIssues(result.data);
    if (issues.length > 0) throw new ConfigError(issues);
  }
  return result.data;
}

/** Fewer different characters than this makes a secret obviously weak (`aaaa…`, an all-zero key, `abab…`). */
const MIN_SECRET_DISTINCT_CHARACTERS = 8;

/**
 * What NODE_ENV=production requires beyond the schema: explicit secrets that are not obviously
 * weak, and, when the server listens beyond loopback (browsers reach it over the network), an
 * https PUBLIC_URL: mailed links, single sign-on redirect URIs and the demo issuer are built from
 * it (else from localhost), and it turns on Secure cookies and HSTS.
 */
function productionIssues(env: Env): string[] {
  const issues: string[] = [];
  for (const name of ['SESSION_SECRET', 'ENCRYPTION_KEY'] as const) {
    const value = env[name];
    if (!value) issues.push(`${name}: required when NODE_ENV=production`);
    else if (new Set(value.toLowerCase()).size < MIN_SECRET_DISTINCT_CHARACTERS) {
      issues.push(
        `${name}: too weak for NODE_ENV=production (fewer than ${MIN_SECRET_DISTINCT_CHARACTERS} different characters); generate one with \`openssl rand -hex 32\``,
      );
    }
  }
  if (!isLoopbackHost(env.HOST)) {
    const why = `when NODE_ENV=production and HOST (${env.HOST}) is not a loopback address: e-mailed links, single sign-on redirects and the demo issuer use it (else localhost), and https turns on Secure cookies and HSTS`;
    if (!env.PUBLIC_URL) issues.push(`PUBLIC_URL: required (https://your-domain) ${why}`);
    else if (!env.PUBLIC_URL.startsWith('https:')) issues.push(`PUBLIC_URL: must start with https:// ${why}`);
  }
  return issues;
}
