import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';

/**
 * A read of a public endpoint (plans, health, sign-in providers) for pages on the public
 * JavaScript budget, where TanStack Query (about 10 KB gzip) is not loaded. The signed-in
 * app keeps TanStack Query (`~/lib/query-provider`); this is the small subset public pages
 * use: a cache shared by key, freshness, a refresh interval and retries.
 */
export interface PublicQueryOptions<T> {
  key: string;
  fetch: () => Promise<T>;
  /** How long an answer is reused by the next page that asks (default 0: every mount fetches). */
  staleTime?: number;
  /** Fetches again every so many milliseconds while a page shows it. */
  refetchInterval?: number;
  /** Retries after a failure, one second apart and doubling (default 1, as the app's query client). */
  retry?: number;
}

export interface PublicQueryState<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  isError: boolean;
  /** When the data shown was fetched (`Date.now()`), 0 before the first answer: tells a page how old a kept answer is. */
  dataUpdatedAt: number;
}

interface Entry<T> {
  state: PublicQueryState<T>;
  updatedAt: number;
  inflight: Promise<void> | null;
  listeners: Set<() => void>;
}

const PENDING: PublicQueryState<never> = { data: undefined, error: null, isPending: true, isError: false, dataUpdatedAt: 0 };
const cache = new Map<string, Entry<unknown>>();

function entryFor<T>(key: string): Entry<T> {
  let entry = cache.get(key) as Entry<T> | undefined;
  if (!entry) {
    entry = { state: PENDING, updatedAt: 0, inflight: null, listeners: new Set() };
    cache.set(key, entry as Entry<unknown>);
  }
  return entry;
}

function update<T>(entry: Entry<T>, state: PublicQueryState<T>): void {
  entry.state = state;
  for (const listener of entry.listeners) listener();
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Fetches once for every caller of the same key at the same time. */
export function fetchPublicQuery<T>(options: PublicQueryOptions<T>): Promise<void> {
  const entry = entryFor<T>(options.key);
  entry.inflight ??= (async () => {
    const retries = options.retry ?? 1;
    for (let attempt = 0; ; attempt += 1) {
      try {
        const data = await options.fetch();
        entry.updatedAt = Date.now();
        update(entry, { data, error: null, isPending: false, isError: false, dataUpdatedAt: entry.updatedAt });
        return;
      } catch (error) {
        if (attempt >= retries) {
          update(entry, { ...entry.state, error, isPending: entry.state.data === undefined, isError: true });
          return;
        }
        await wait(1_000 * 2 ** attempt);
      }
    }
  })().finally(() => {
    entry.inflight = null;
  });
  return entry.inflight;
}

/** The answer of a public endpoint: `isPending` until the first answer, `isError` when the last fetch failed. */
export function usePublicQuery<T>(options: PublicQueryOptions<T>): PublicQueryState<T> {
  const { key, staleTime = 0, refetchInterval } = options;
  const entry = entryFor<T>(key);
  const subscribe = useCallback(
    (listener: () => void) => {
      entry.listeners.add(listener);
      return () => entry.listeners.delete(listener);
    },
    [entry],
  );
  const state = useSyncExternalStore(
    subscribe,
    () => entry.state,
    () => PENDING,
  );
  // The latest options without re-running the effect on every render (callers pass object literals).
  const latest = useRef(options);
  latest.current = options;
  useEffect(() => {
    if (entry.updatedAt === 0 || Date.now() - entry.updatedAt >= staleTime) void fetchPublicQuery(latest.current);
    if (!refetchInterval) return;
    const timer = setInterval(() => void fetchPublicQuery(latest.current), refetchInterval);
    return () => clearInterval(timer);
  }, [entry, staleTime, refetchInterval]);
  return state;
}

/** Forgets every cached answer (tests). */
export function resetPublicQueries(): void {
  cache.clear();
}
