import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash'),
    plan: text('plan', { enum: ['free', 'pro', 'enterprise', 'byo-keys'] })
      .notNull()
      .default('free'),
    verified: boolean('verified').notNull().default(false),
    authMethod: text('auth_method', { enum: ['email', 'oidc'] }).notNull(),
    onboardingCompleted: boolean('onboarding_completed').notNull().default(false),
    oidcProvider: text('oidc_provider'),
    oidcClaims: jsonb('oidc_claims').$type<Record<string, unknown>>(),
    isDemo: boolean('is_demo').notNull().default(false),
    /** The account's default gateway routing policy (`{strategy, targets?}`); null means the built-in default. */
    routingPolicy: jsonb('routing_policy').$type<{ strategy: string; targets?: { provider: string; model: string; weight?: number }[] }>(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('users_email_lower_idx').on(sql`lower(${table.email})`)],
);

/** A single sign-on identity, keyed by issuer + subject (never by e-mail alone). */
export const userIdentities = pgTable(
  'user_identities',
  {
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.issuer, table.subject] }), index('user_identities_user_idx').on(table.userId)],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the opaque token; the token itself is never stored. */
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    remember: boolean('remember').notNull().default(false),
    userAgent: text('user_agent'),
    ip: text('ip'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);

export const passwordResets = pgTable('password_resets', {
  tokenHash: text('token_hash').primaryKey(),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * Every e-mail the server sends. Without SMTP it is the development outbox (the body kept here and
 * logged). With SMTP only the envelope is kept, and the body, sealed (AES-256-GCM), only until it
 * is delivered, so a failed delivery is tried again (`Mailer.redeliver`) until `deliverUntil`.
 */
export const outboxEmails = pgTable(
  'outbox_emails',
  {
    id: serial('id').primaryKey(),
    to: text('to_address').notNull(),
    subject: text('subject').notNull(),
    text: text('body_text').notNull(),
    kind: text('kind').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** IV, tag and ciphertext of the body while it waits for delivery; null once delivered or given up. */
    pendingBody: bytea('pending_body'),
    /** Delivery attempts so far. */
    attempts: integer('attempts').notNull().default(0),
    /** When the next attempt is due (also the lease of an attempt under way). */
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** Past this the mail is no longer worth sending (a reset link that has expired). */
    deliverUntil: timestamp('deliver_until', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('outbox_emails_due_idx').on(table.nextAttemptAt).where(sql`${table.pendingBody} is not null`)],
);

/** Bring-your-own provider keys, AES-256-GCM encrypted at rest. */
export const providerKeys = pgTable(
  'provider_keys',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    ciphertext: bytea('ciphertext').notNull(),
    iv: bytea('iv').notNull(),
    authTag: bytea('auth_tag').notNull(),
    masked: text('masked').notNull(),
    /** Azure OpenAI only: the account's own resource (`https://….openai.azure.com`); null: the server's. */
    baseUrl: text('base_url'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.provider] })],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    environment: text('environment', { enum: ['live', 'test'] }).notNull(),
    masked: text('masked').notNull(),
    keyHash: text('key_hash').notNull(),
    permissions: jsonb('permissions').$type<string[]>().notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /**
     * The shared demo account only: the session (token hash) whose visitor created the key. Visitors
     * see and manage their own keys and the seeded samples, never each other's; null elsewhere.
     */
    createdSession: text('created_session'),
  },
  (table) => [uniqueIndex('api_keys_hash_idx').on(table.keyHash), index('api_keys_user_idx').on(table.userId)],
);

/**
 * One row per gateway request, success or error. `user_id` carries no foreign key: the check
 * cost a third of each metered insert on the embedded database. Integrity holds without it:
 * a batch writes its events and their `usage_daily` rows (which keep the foreign key) in one
 * transaction, so events of an account already gone roll back with the rollup; deleting an
 * account deletes its events explicitly (`deleteUsers`, users.repository.ts). `request_id` is
 * unique (migration 0011), so no event is written twice.
 */
export const usageEvents = pgTable(
  'usage_events',
  {
    /**
     * The gateway's request id (`x-request-id`). The key: a batch re-sent after its commit was not
     * acknowledged (the connection dropped) must not be counted twice, so its events fail on it and
     * the meter takes them as already written. (Until migration 0012 a serial id was the key and
     * this a second unique index: two B-trees to update per event.)
     */
    requestId: text('request_id').primaryKey(),
    userId: text('user_id').notNull(),
    apiKeyId: text('api_key_id'),
    environment: text('environment', { enum: ['live', 'test'] }).notNull(),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    promptTokens: integer('prompt_tokens').notNull().default(0),
    completionTokens: integer('completion_tokens').notNull().default(0),
    costMicros: bigint('cost_micros', { mode: 'number' }).notNull().default(0),
    latencyMs: integer('latency_ms').notNull().default(0),
    statusCode: integer('status_code').notNull(),
    errorType: text('error_type'),
    streamed: boolean('streamed').notNull().default(false),
    /**
     * Whose provider key served the request: `byok` (the account's own: metered, but outside the
     * plan's token quota and overage, since the provider bills the account), `hosted` (the
     * server's), null when no upstream served it (sandbox, refused, failed).
     */
    keySource: text('key_source', { enum: ['byok', 'hosted'] }),
    createdAt: createdAt(),
  },
  (table) => [index('usage_events_user_time_idx').on(table.userId, table.createdAt)],
);

/** Daily rollup kept in step with usage_events so dashboard queries stay fast at scale. */
export const usageDaily = pgTable(
  'usage_daily',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    environment: text('environment').notNull(),
    provider: text('provider').notNull(),
    model: text('model').notNull(),
    requests: integer('requests').notNull().default(0),
    errors: integer('errors').notNull().default(0),
    promptTokens: bigint('prompt_tokens', { mode: 'number' }).notNull().default(0),
    completionTokens: bigint('completion_tokens', { mode: 'number' }).notNull().default(0),
    costMicros: bigint('cost_micros', { mode: 'number' }).notNull().default(0),
    latencyMsSum: bigint('latency_ms_sum', { mode: 'number' }).notNull().default(0),
    /** Of the tokens above, those served on the account's own provider keys (outside the quota). */
    ownKeyTokens: bigint('own_key_tokens', { mode: 'number' }).notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userId, table.day, table.environment, table.provider, table.model] })],
);

export const subscriptions = pgTable(
  'subscriptions',
  {
    userId: text('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    plan: text('plan').notNull(),
    period: text('period', { enum: ['monthly', 'yearly'] })
      .notNull()
      .default('monthly'),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /**
     * The account's one free trial: null until a move to a paid plan starts it, then when it ends
     * (the trial is the period that ends then); a trial left early for an unpaid plan ends at once.
     */
    trialEndsAt: timestamp('trial_ends_at', { withTimezone: true }),
    /** When the trial's end was announced by e-mail (a few days before it), so it is announced once. */
    trialRemindedAt: timestamp('trial_reminded_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // The billing sweep's two reads every minute: periods that are over, and trials not yet announced.
    index('subscriptions_period_end_idx').on(table.currentPeriodEnd),
    index('subscriptions_trial_reminder_idx').on(table.trialEndsAt).where(sql`${table.trialRemindedAt} is null`),
  ],
);

export const invoices = pgTable(
  'invoices',
  {
    id: text('id').primaryKey(),
    /**
     * The account billed; null once it is deleted: invoices are kept (they are the billing record),
     * and nothing else on them names the person (the document's name and e-mail are read from the
     * account when it is downloaded).
     */
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    number: text('number').notNull(),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    // An overage line also records the calendar month and tokens it bills, so no token is billed twice.
    lines: jsonb('lines').$type<{ description: string; amountCents: number; overage?: { month: string; tokens: number } }[]>().notNull(),
    status: text('status', { enum: ['paid', 'open', 'void', 'uncollectible'] }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('invoices_number_idx').on(table.number), index('invoices_user_idx').on(table.userId)],
);

export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: serial('id').primaryKey(),
    /** Normalised (trimmed, lower-cased): unique case-insensitively within its list. */
    email: text('email').notNull(),
    /** The list: the coming-soon page's launch waitlist, or the footer's product news. */
    source: text('source').notNull(),
    createdAt: createdAt(),
  },
  // One address per list: joining the launch waitlist does not subscribe to the news, nor the reverse.
  (table) => [uniqueIndex('waitlist_entries_email_source_idx').on(table.email, table.source)],
);

export const supportTickets = pgTable(
  'support_tickets',
  {
    id: text('id').primaryKey(),
    number: serial('number').notNull(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name'),
    email: text('email').notNull(),
    subject: text('subject').notNull(),
    priority: text('priority').notNull(),
    category: text('category').notNull(),
    description: text('description').notNull(),
    channel: text('channel', { enum: ['support', 'contact'] }).notNull(),
    status: text('status').notNull().default('open'),
    createdAt: createdAt(),
  },
  (table) => [index('support_tickets_user_idx').on(table.userId)],
);

export const ticketAttachments = pgTable('ticket_attachments', {
  id: text('id').primaryKey(),
  ticketId: text('ticket_id')
    .notNull()
    .references(() => supportTickets.id, { onDelete: 'cascade' }),
  filename: text('filename').notNull(),
  mimeType: text('mime_type').notNull(),
  sizeBytes: integer('size_bytes').notNull(),
  data: bytea('data').notNull(),
  createdAt: createdAt(),
});

/** Results of the scheduled health checks behind /status. */
export const healthChecks = pgTable(
  'health_checks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    component: text('component').notNull(),
    status: text('status', { enum: ['operational', 'degraded', 'outage'] }).notNull(),
    latencyMs: integer('latency_ms'),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('health_checks_component_time_idx').on(table.component, table.checkedAt)],
);

/**
 * Server-wide secrets every instance must share, sealed with ENCRYPTION_KEY (AES-256-GCM): the
 * embedded OIDC issuer's signing keys, so its published JWKS is the same on every instance.
 */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  ciphertext: bytea('ciphertext').notNull(),
  iv: bytea('iv').notNull(),
  authTag: bytea('auth_tag').notNull(),
  createdAt: createdAt(),
});

/** Storage for the embedded OIDC issuer (oidc-provider adapter), shared by every instance. */
export const oidcStore = pgTable(
  'oidc_store',
  {
    model: text('model').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.model, table.id] }),
    index('oidc_store_grant_idx').on(table.grantId),
    index('oidc_store_uid_idx').on(table.uid),
  ],
);
