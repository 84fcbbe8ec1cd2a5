import { costMicros, findModel } from '@conductor/shared';
import type { UsageEventInput } from './usage.writer.ts';

/**
 * Plausible, deterministic usage for the demo account: weekday/weekend and day/night
 * rhythm, gentle growth over the quarter, a realistic model mix, latencies and a few errors.
 * Each hour is generated from its own seed, so topping the history up later never
 * duplicates or changes what was already written.
 */

const HOUR_MS = 60 * 60 * 1000;
export const DEMO_HISTORY_DAYS = 90;

interface DemoModel {
  id: string;
  weight: number;
  latencyMs: number;
  promptMean: number;
  completionMean: number;
}

const DEMO_MODELS: DemoModel[] = [
  { id: 'gpt-4o-mini', weight: 34, latencyMs: 620, promptMean: 240, completionMean: 90 },
  { id: 'gpt-4o', weight: 20, latencyMs: 1450, promptMean: 320, completionMean: 140 },
  { id: 'claude-3-5-sonnet', weight: 18, latencyMs: 1750, promptMean: 360, completionMean: 160 },
  { id: 'claude-3-5-haiku', weight: 12, latencyMs: 700, promptMean: 200, completionMean: 80 },
  { id: 'gemini-1.5-flash', weight: 10, latencyMs: 520, promptMean: 260, completionMean: 90 },
  { id: 'mistral-small-latest', weight: 6, latencyMs: 680, promptMean: 220, completionMean: 85 },
];
const TOTAL_WEIGHT = DEMO_MODELS.reduce((sum, model) => sum + model.weight, 0);

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function poisson(lambda: number, random: () => number): number {
  const limit = Math.exp(-lambda);
  let count = 0;
  let product = random();
  while (product > limit) {
    count += 1;
    product *= random();
  }
  return count;
}

/** Roughly log-normal spread around a mean (never below 10% of it). */
function spread(mean: number, random: () => number, width = 0.5): number {
  const gaussian = (random() + random() + random() - 1.5) * 2;
  return Math.max(mean * 0.1, mean * Math.exp(gaussian * width - (width * width) / 2));
}

function pickModel(random: () => number): DemoModel {
  let ticket = random() * TOTAL_WEIGHT;
  for (const model of DEMO_MODELS) {
    ticket -= model.weight;
    if (ticket <= 0) return model;
  }
  return DEMO_MODELS[0]!;
}

/** Expected requests in an hour: ~70 a weekday, fewer at night and at weekends, growing over time. */
function expectedRequests(hourStart: number, now: number): number {
  const date = new Date(hourStart);
  const weekend = date.getUTCDay() === 0 || date.getUTCDay() === 6;
  const hour = date.getUTCHours();
  const daytime = 0.35 + 0.65 * Math.max(0, Math.sin(((hour - 6) / 24) * 2 * Math.PI));
  const ageDays = (now - hourStart) / (24 * HOUR_MS);
  const growth = 1.15 - (0.4 * Math.min(ageDays, DEMO_HISTORY_DAYS)) / DEMO_HISTORY_DAYS;
  return (weekend ? 2.2 : 5.6) * daytime * growth;
}

export interface DemoKeys {
  live: string;
  test: string;
}

/** Events with createdAt in (after, now], oldest first. */
export function generateDemoEvents(userId: string, keys: DemoKeys, after: number, now: number): UsageEventInput[] {
  const events: UsageEventInput[] = [];
  const firstHour = Math.floor(Math.max(after, now - DEMO_HISTORY_DAYS * 24 * HOUR_MS) / HOUR_MS) * HOUR_MS;
  for (let hourStart = firstHour; hourStart <= now; hourStart += HOUR_MS) {
    const random = mulberry32(Math.floor(hourStart / HOUR_MS) ^ 0x5eed);
    const count = poisson(expectedRequests(hourStart, now), random);
    const offsets = Array.from({ length: count }, () => Math.floor(random() * HOUR_MS)).sort((a, b) => a - b);
    offsets.forEach((offset, index) => {
      const createdAt = hourStart + offset;
      const model = pickModel(random);
      const environment = random() < 0.1 ? 'test' : 'live';
      const roll = random();
      const statusCode = roll < 0.003 ? 502 : roll < 0.006 ? 429 : roll < 0.008 ? 400 : 200;
      const ok = statusCode === 200;
      const promptTokens = Math.round(spread(model.promptMean, random, 0.6));
      const completionTokens = ok ? Math.round(spread(model.completionMean, random, 0.7)) : 0;
      const latencyMs = Math.round(ok ? spread(model.latencyMs, random, 0.45) : 40 + random() * 400);
      if (createdAt <= after || createdAt > now) return;
      const info = findModel(model.id);
      events.push({
        // Request ids are unique (usage_events): a top-up may draw a different count for the hour it
        // resumes in, so the id names the event's instant, which is always after every event written.
        requestId: `req_demo_${createdAt.toString(36)}_${index}`,
        userId,
        apiKeyId: environment === 'live' ? keys.live : keys.test,
        environment,
        provider: info?.provider ?? 'openai',
        model: model.id,
        promptTokens: ok ? promptTokens : 0,
        completionTokens,
        // Test keys are served by the sandbox: metered, never billed.
        costMicros: ok && environment === 'live' ? costMicros(info, promptTokens, completionTokens) : 0,
        latencyMs,
        statusCode,
        errorType: ok ? null : statusCode === 429 ? 'rate_limit_error' : statusCode === 400 ? 'invalid_request_error' : 'api_error',
        streamed: random() < 0.3,
        createdAt: new Date(createdAt),
      });
    });
  }
  return events;
}
