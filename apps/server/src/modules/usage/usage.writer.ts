import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { usageDaily, usageEvents } from '../../db/schema/index.ts';
import { utcDay } from '../../lib/pg-time.ts';

export type UsageEventInput = typeof usageEvents.$inferInsert & { createdAt: Date };

/**
 * Writes a batch of usage events and folds them into the daily rollup in one transaction,
 * so the dashboard's reads never scan raw events.
 */
export async function recordUsageEvents(db: Database, events: UsageEventInput[]): Promise<void> {
  if (events.length === 0) return;
  const rollup = new Map<string, typeof usageDaily.$inferInsert>();
  for (const event of events) {
    const day = utcDay(event.createdAt);
    const key = [event.userId, day, event.environment, event.provider, event.model].join('\u0000');
    const row = rollup.get(key) ?? {
      userId: event.userId,
      day,
      environment: event.environment,
      provider: event.provider,
      model: event.model,
      requests: 0,
      errors: 0,
      promptTokens: 0,
      completionTokens: 0,
      costMicros: 0,
      latencyMsSum: 0,
      ownKeyTokens: 0,
    };
    row.requests = (row.requests ?? 0) + 1;
    row.errors = (row.errors ?? 0) + (event.statusCode >= 400 ? 1 : 0);
    row.promptTokens = (row.promptTokens ?? 0) + (event.promptTokens ?? 0);
    row.completionTokens = (row.completionTokens ?? 0) + (event.completionTokens ?? 0);
    row.costMicros = (row.costMicros ?? 0) + (event.costMicros ?? 0);
    row.latencyMsSum = (row.latencyMsSum ?? 0) + (event.latencyMs ?? 0);
    if (event.keySource === 'byok') row.ownKeyTokens = (row.ownKeyTokens ?? 0) + (event.promptTokens ?? 0) + (event.completionTokens ?? 0);
    rollup.set(key, row);
  }
  await db.transaction(async (tx) => {
    for (let index = 0; index < events.length; index += 1000) {
      await tx.insert(usageEvents).values(events.slice(index, index + 1000));
    }
    const rows = [...rollup.values()];
    for (let index = 0; index < rows.length; index += 1000) {
      await tx
        .insert(usageDaily)
        .values(rows.slice(index, index + 1000))
        .onConflictDoUpdate({
          target: [usageDaily.userId, usageDaily.day, usageDaily.environment, usageDaily.provider, usageDaily.model],
          set: {
            requests: sql`${usageDaily.requests} + excluded.requests`,
            errors: sql`${usageDaily.errors} + excluded.errors`,
            promptTokens: sql`${usageDaily.promptTokens} + excluded.prompt_tokens`,
            completionTokens: sql`${usageDaily.completionTokens} + excluded.completion_tokens`,
            costMicros: sql`${usageDaily.costMicros} + excluded.cost_micros`,
            latencyMsSum: sql`${usageDaily.latencyMsSum} + excluded.latency_ms_sum`,
            ownKeyTokens: sql`${usageDaily.ownKeyTokens} + excluded.own_key_tokens`,
          },
        });
    }
  });
}
