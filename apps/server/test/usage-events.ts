import { randomUUID } from 'node:crypto';
import type { UsageEventInput } from '../src/modules/usage/usage.writer.ts';

/** A metered request as the gateway records it: a successful live gpt-4o call on 2025-03-01, with `overrides`. */
export const usageEvent = (userId: string, overrides: Partial<UsageEventInput> = {}): UsageEventInput => ({
  requestId: randomUUID(),
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
