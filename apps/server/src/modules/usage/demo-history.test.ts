import { describe, expect, it } from 'vitest';
import { generateDemoEvents } from './demo-history.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

describe('demo usage history', () => {
  it('gives a top-up request ids of its own (usage_events.request_id is unique)', () => {
    const keys = { live: 'live-key', test: 'test-key' };
    const base = Date.UTC(2026, 10, 1);
    // A top-up may draw another count for the hour it resumes in: at these starts (64, 149 and 195
    // of 300 tried), the ids once numbered per hour repeated an id already written.
    for (const trial of [0, 64, 149, 195]) {
      const now = base + trial * HOUR_MS * 7.3 + trial * 1234;
      const first = generateDemoEvents('demo', keys, 0, now);
      const latest = Math.max(...first.map((event) => event.createdAt.getTime()));
      const later = generateDemoEvents('demo', keys, latest, now + 2 * DAY_MS);
      const ids = new Set(first.map((event) => event.requestId));
      expect(ids.size).toBe(first.length);
      expect(later.filter((event) => ids.has(event.requestId))).toEqual([]);
    }
  });
});
