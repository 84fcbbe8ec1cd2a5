import { randomUUID } from 'node:crypto';
import type { UsageEventInput } from '../src/modules/usage/usage.writer.ts';

let made = 0;

/**
 * A metered request as the gateway records it: a successful live gpt-4o call on 2025-03-01, with
 * `overrides`. Request ids (the table's key) sort in the order the events were made, so a test can
 * read events back in that order.
 */
export const usageEvent = (userId: string, overrides: Partial<UsageEventInput> = {}): UsageEventInput => ({
  requestId: `${(made++).toString().padStart(9, '0')}-${randomUUID()}`,
  userId,
  apiKeyId: null,
  environment: 'live',
  provider: 'openai',
  model: 'gpt-4o',
  promptTokens: 10,
  completionTokens: 5,
  costMicros: 75,
  latencyMs: 120,
  statusCode: 200,
  errorType: null,
  streamed: false,
  createdAt: new Date('2025-03-01T10:00:00Z'),
  ...overrides,
});
