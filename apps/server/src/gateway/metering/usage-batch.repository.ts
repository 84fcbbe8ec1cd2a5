import { sql } from 'drizzle-orm';
import { type Database, embeddedClient } from '../../db/client.ts';
import { utcDay, utcTimestamp } from '../../lib/pg-time.ts';
import { hasLoneSurrogate, wellFormed } from '../../lib/text.ts';
import type { UsageEventInput } from '../../modules/usage/usage.writer.ts';

interface DailyRow {
  user_id: string;
  day: string;
  environment: string;
  provider: string;
  model: string;
  requests: number;
  errors: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost_micros: number;
  latency_ms_sum: number;
  own_key_tokens: number;
}

const DAY_MS = 86_400_000;

/** The daily rollup of a batch: one row per account, UTC day, environment, provider and model. */
export function rollUp(events: readonly UsageEventInput[]): DailyRow[] {
  const rows = new Map<string, DailyRow>();
  // A batch spans a second or so: the UTC day's text is made once per day number, not per event.
  let dayNumber = Number.NaN;
  let day = '';
  for (const event of events) {
    const number = Math.floor(event.createdAt.getTime() / DAY_MS);
    if (number !== dayNumber) {
      dayNumber = number;
      day = utcDay(event.createdAt);
    }
    const key = `${event.userId}\u0000${day}\u0000${event.environment}\u0000${event.provider}\u0000${event.model}`;
    let row = rows.get(key);
    if (!row) {
      row = {
        user_id: event.userId,
        day,
        environment: event.environment,
        provider: event.provider,
        model: event.model,
        requests: 0,
        errors: 0,
        prompt_tokens: 0,
        completion_tokens: 0,
        cost_micros: 0,
        latency_ms_sum: 0,
        own_key_tokens: 0,
      };
      rows.set(key, row);
    }
    row.requests += 1;
    row.errors += event.statusCode >= 400 ? 1 : 0;
    const tokens = (event.promptTokens ?? 0) + (event.completionTokens ?? 0);
    row.prompt_tokens += event.promptTokens ?? 0;
    row.completion_tokens += event.completionTokens ?? 0;
    if (event.keySource === 'byok') row.own_key_tokens += tokens;
    row.cost_micros += event.costMicros ?? 0;
    row.latency_ms_sum += event.latencyMs ?? 0;
  }
  return [...rows.values()];
}

const EVENT_COLUMNS =
  'request_id, user_id, api_key_id, environment, provider, model, prompt_tokens, completion_tokens, cost_micros, latency_ms, status_code, error_type, streamed, key_source, created_at';

/** NUL or a lone surrogate: text PostgreSQL cannot take (its JSON parser refuses a lone `\ud83d`). */
const unstorable = (text: string | null | undefined): boolean => {
  if (text == null) return false;
  return text.includes('\u0000') || hasLoneSurrogate(text);
};
const storable = (text: string): string => wellFormed(text.replaceAll('\u0000', '\uFFFD'));

const INT4_MAX = 2_147_483_647;
/** A count as a column of range 0..`max` holds it: rounded and clamped (a missing or NaN count is 0). */
function countWithin(value: number | undefined, max: number): number {
  const number = value ?? 0;
  return Number.isNaN(number) ? 0 : Math.min(max, Math.max(0, Math.round(number)));
}
const fits = (value: number | undefined, max: number): boolean => value === undefined || countWithin(value, max) === value;

function needsRepair(event: UsageEventInput): boolean {
  return (
    unstorable(event.model) ||
    unstorable(event.provider) ||
    unstorable(event.errorType) ||
    !fits(event.promptTokens, INT4_MAX) ||
    !fits(event.completionTokens, INT4_MAX) ||
    !fits(event.latencyMs, INT4_MAX) ||
    !fits(event.costMicros, Number.MAX_SAFE_INTEGER)
  );
}

/**
 * What one event may carry that its row cannot, and that would fail every retry of its batch:
 * PostgreSQL text cannot hold NUL (a caller chooses the model name a failed request is metered
 * under), and the token counts come from the upstream's own usage report, which may claim more
 * than an `integer` column holds. NUL and lone UTF-16 surrogates are replaced by U+FFFD and the
 * numbers are clamped into their columns' range.
 */
export function storableEvents(events: readonly UsageEventInput[]): readonly UsageEventInput[] {
  // One check per event; the batch is copied only when an event needs repair (rare).
  let repaired: UsageEventInput[] | undefined;
  events.forEach((event, index) => {
    if (!needsRepair(event)) return;
    repaired ??= [...events];
    repaired[index] = {
      ...event,
      model: storable(event.model),
      provider: storable(event.provider),
      errorType: event.errorType == null ? event.errorType : storable(event.errorType),
      promptTokens: countWithin(event.promptTokens, INT4_MAX),
      completionTokens: countWithin(event.completionTokens, INT4_MAX),
      latencyMs: countWithin(event.latencyMs, INT4_MAX),
      costMicros: countWithin(event.costMicros, Number.MAX_SAFE_INTEGER),
    };
  });
  return repaired ?? events;
}

/** `COPY … (format binary)`: signature, flags, header extension length. */
const COPY_HEADER = Buffer.from('PGCOPY\n\xff\r\n\0\0\0\0\0\0\0\0\0', 'latin1');
const EVENT_FIELDS = 15;
/** PostgreSQL's timestamp epoch (2000-01-01T00:00:00Z) in Unix milliseconds. */
const POSTGRES_EPOCH_MS = 946_684_800_000;
const TWO_TO_32 = 4_294_967_296;

/**
 * The events as `COPY … (format binary)` data, in EVENT_COLUMNS order: each row a field count,
 * then each field as its length and bytes (text as UTF-8, integers big-endian, `timestamptz`
 * as microseconds since 2000, NULL as length -1). The embedded database reads it with no
 * text parsing at all, the cheapest insert it has (docs/benchmarks.md).
 */
export function eventsCopyBinary(events: readonly UsageEventInput[]): Buffer {
  let size = COPY_HEADER.length + 2;
  for (const event of events) {
    // Fixed part: field count, 15 lengths, 4 int4, 2 int8, 1 bool; text at most 3 bytes per UTF-16 unit.
    size += 2 + EVENT_FIELDS * 4 + 16 + 16 + 1 + 3 * (event.keySource?.length ?? 0);
    size += 3 * (event.requestId.length + event.userId.length + (event.apiKeyId?.length ?? 0) + event.environment.length);
    size += 3 * (event.provider.length + event.model.length + (event.errorType?.length ?? 0));
  }
  const buffer = Buffer.allocUnsafe(size);
  COPY_HEADER.copy(buffer, 0);
  let at = COPY_HEADER.length;
  const text = (value: string | null | undefined) => {
    if (value == null) {
      at = buffer.writeInt32BE(-1, at);
      return;
    }
    const length = buffer.write(value, at + 4, 'utf8');
    buffer.writeInt32BE(length, at);
    at += 4 + length;
  };
  const int4 = (value: number) => {
    at = buffer.writeInt32BE(4, at);
    at = buffer.writeInt32BE(value, at);
  };
  /** A safe integer as a signed 64-bit big-endian value. */
  const int8 = (value: number) => {
    const high = Math.floor(value / TWO_TO_32);
    at = buffer.writeInt32BE(8, at);
    at = buffer.writeInt32BE(high, at);
    at = buffer.writeUInt32BE(value - high * TWO_TO_32, at);
  };
  for (const event of events) {
    at = buffer.writeInt16BE(EVENT_FIELDS, at);
    text(event.requestId);
    text(event.userId);
    text(event.apiKeyId);
    text(event.environment);
    text(event.provider);
    text(event.model);
    int4(event.promptTokens ?? 0);
    int4(event.completionTokens ?? 0);
    int8(event.costMicros ?? 0);
    int4(event.latencyMs ?? 0);
    int4(event.statusCode);
    text(event.errorType);
    at = buffer.writeInt32BE(1, at);
    at = buffer.writeUInt8(event.streamed ? 1 : 0, at);
    text(event.keySource);
    int8((event.createdAt.getTime() - POSTGRES_EPOCH_MS) * 1000);
  }
  at = buffer.writeInt16BE(-1, at);
  return buffer.subarray(0, at);
}

function eventsJson(events: readonly UsageEventInput[]): string {
  return JSON.stringify(
    events.map((event) => ({
      request_id: event.requestId,
      user_id: event.userId,
      api_key_id: event.apiKeyId ?? null,
      environment: event.environment,
      provider: event.provider,
      model: event.model,
      prompt_tokens: event.promptTokens ?? 0,
      completion_tokens: event.completionTokens ?? 0,
      cost_micros: event.costMicros ?? 0,
      latency_ms: event.latencyMs ?? 0,
      status_code: event.statusCode,
      error_type: event.errorType ?? null,
      streamed: event.streamed ?? false,
      key_source: event.keySource ?? null,
      created_at: utcTimestamp(event.createdAt),
    })),
  );
}

const UPSERT_DAILY = `
  insert into usage_daily (user_id, day, environment, provider, model, requests, errors, prompt_tokens, completion_tokens, cost_micros, latency_ms_sum, own_key_tokens)
  select user_id, day, environment, provider, model, requests, errors, prompt_tokens, completion_tokens, cost_micros, latency_ms_sum, own_key_tokens
  from json_to_recordset($1::json) as daily(user_id text, day date, environment text, provider text, model text,
    requests integer, errors integer, prompt_tokens bigint, completion_tokens bigint, cost_micros bigint, latency_ms_sum bigint, own_key_tokens bigint)
  on conflict (user_id, day, environment, provider, model) do update set
    requests = usage_daily.requests + excluded.requests,
    errors = usage_daily.errors + excluded.errors,
    prompt_tokens = usage_daily.prompt_tokens + excluded.prompt_tokens,
    completion_tokens = usage_daily.completion_tokens + excluded.completion_tokens,
    cost_micros = usage_daily.cost_micros + excluded.cost_micros,
    latency_ms_sum = usage_daily.latency_ms_sum + excluded.latency_ms_sum,
    own_key_tokens = usage_daily.own_key_tokens + excluded.own_key_tokens`;

const [UPSERT_DAILY_BEFORE = '', UPSERT_DAILY_AFTER = ''] = UPSERT_DAILY.split('$1');

/** A SQL string literal (standard_conforming_strings, the default: only quotes are doubled; NUL is already gone). */
const sqlLiteral = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/**
 * The gateway's batch writer: the same rows as `recordUsageEvents` (events plus the daily
 * rollup, in one transaction), with no per-value query building on the request-serving thread.
 * On PostgreSQL two statements in a transaction carry the batch as one JSON parameter each,
 * expanded by `json_to_recordset`. On the embedded PGlite, which runs in this process (in its own thread by default), the batch
 * is one simple-protocol message: a binary `COPY` of the events and the rollup upsert (its JSON
 * inlined as a literal), which PostgreSQL runs as one implicit transaction: about 7 µs of CPU per
 * event against 10 µs for CSV `COPY` in an explicit transaction (docs/benchmarks.md).
 */
export async function writeUsageBatch(db: Database, batch: readonly UsageEventInput[]): Promise<void> {
  if (batch.length === 0) return;
  const events = storableEvents(batch);
  const dailyRows = JSON.stringify(rollUp(events));
  const embedded = embeddedClient(db);
  if (embedded) {
    const blob = new Blob([eventsCopyBinary(events)]);
    await embedded.exec(
      `copy usage_events (${EVENT_COLUMNS}) from '/dev/blob' with (format binary);${UPSERT_DAILY_BEFORE}${sqlLiteral(dailyRows)}${UPSERT_DAILY_AFTER}`,
      { blob },
    );
    return;
  }
  const eventRows = eventsJson(events);
  await db.transaction(async (tx) => {
    await tx.execute(sql`
      insert into usage_events (${sql.raw(EVENT_COLUMNS)})
      select ${sql.raw(EVENT_COLUMNS)}
      from json_to_recordset(${eventRows}::json) as event(request_id text, user_id text, api_key_id text, environment text, provider text, model text,
        prompt_tokens integer, completion_tokens integer, cost_micros bigint, latency_ms integer, status_code integer, error_type text, streamed boolean, key_source text, created_at timestamptz)
    `);
    await tx.execute(sql`${sql.raw(UPSERT_DAILY_BEFORE)}${dailyRows}${sql.raw(UPSERT_DAILY_AFTER)}`);
  });
}
