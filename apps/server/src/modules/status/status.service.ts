import { STATUS_HISTORY_DAYS, type StatusResponse } from '@conductor/shared/schemas/status';
import type { Database } from '../../db/client.ts';
import { type CheckDependencies, type ComponentCheck, overallStatus, runChecks, statusComponents } from './status.checks.ts';
import { componentHistory, dayRange, startOfUtcDay } from './status.history.ts';
import { type DailyCount, dailyCounts, pruneChecks, recordChecks } from './status.repository.ts';

/** Live state older than this is checked again when someone asks. */
export const LIVE_STATE_TTL_MS = 30_000;
const DAY_MS = 86_400_000;
const PRUNE_EVERY_MS = 3_600_000;

export interface StatusServiceDependencies extends CheckDependencies {
  db: Database;
  now(): number;
  log?: { warn(obj: object, msg: string): void };
}

export interface StatusService {
  /** The /status page's data: live state (cached briefly) and the daily history. */
  getStatus(): Promise<StatusResponse>;
  /** One scheduled round: check every component, store the results, prune old ones. */
  checkAndRecord(): Promise<ComponentCheck[]>;
}

export function createStatusService(deps: StatusServiceDependencies): StatusService {
  let live: { at: number; checks: ComponentCheck[] } | null = null;
  let inFlight: Promise<ComponentCheck[]> | null = null;
  // Past days never change: aggregate them once per UTC day; only today is re-read.
  let pastDays: { day: number; counts: DailyCount[] } | null = null;
  let lastPrune = 0;

  const check = (): Promise<ComponentCheck[]> => {
    inFlight ??= runChecks(deps)
      .then((checks) => {
        live = { at: deps.now(), checks };
        return checks;
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };

  const liveChecks = async () => (live && deps.now() - live.at < LIVE_STATE_TTL_MS ? live.checks : check());

  const history = async (): Promise<DailyCount[]> => {
    const today = startOfUtcDay(deps.now());
    const windowStart = today - (STATUS_HISTORY_DAYS - 1) * DAY_MS;
    if (pastDays?.day !== today) {
      pastDays = { day: today, counts: await dailyCounts(deps.db, new Date(windowStart), new Date(today)) };
    }
    const todayCounts = await dailyCounts(deps.db, new Date(today), new Date(today + DAY_MS));
    return [...pastDays.counts, ...todayCounts];
  };

  return {
    async getStatus() {
      // With the database down, the page must still say so: the history falls back to the past
      // days already read (or none), and the live checks report the outage.
      const [checks, counts] = await Promise.all([
        liveChecks(),
        history().catch((error: unknown) => {
          deps.log?.warn({ err: error }, 'status history unavailable: live state only');
          return pastDays?.counts ?? [];
        }),
      ]);
      const now = deps.now();
      const days = dayRange(now, STATUS_HISTORY_DAYS);
      const byId = new Map(checks.map((entry) => [entry.component, entry]));
      return {
        status: overallStatus(checks),
        checkedAt: new Date(live?.at ?? now).toISOString(),
        historyDays: STATUS_HISTORY_DAYS,
        components: statusComponents(deps.env).map((component) => {
          const current = byId.get(component.id);
          const { days: bars, uptimePercent } = componentHistory(component.id, days, counts);
          return {
            ...component,
            status: current?.status ?? 'outage',
            latencyMs: current?.latencyMs ?? null,
            uptimePercent,
            history: bars,
          };
        }),
      };
    },

    async checkAndRecord() {
      const checks = await check();
      const now = deps.now();
      await recordChecks(deps.db, checks, new Date(now));
      if (now - lastPrune >= PRUNE_EVERY_MS) {
        lastPrune = now;
        await pruneChecks(deps.db, new Date(startOfUtcDay(now) - STATUS_HISTORY_DAYS * DAY_MS));
      }
      return checks;
    },
  };
}
