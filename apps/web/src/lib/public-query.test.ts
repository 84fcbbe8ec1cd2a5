import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchPublicQuery, resetPublicQueries, usePublicQuery } from './public-query';

afterEach(() => {
  resetPublicQueries();
  vi.useRealTimers();
});

describe('usePublicQuery', () => {
  it('is pending, then holds the answer; callers of the same key share one fetch', async () => {
    const fetch = vi.fn(async () => ({ plans: 3 }));
    const options = { key: 'test/shared', fetch, staleTime: 60_000 };
    const first = renderHook(() => usePublicQuery(options));
    const second = renderHook(() => usePublicQuery(options));
    expect(first.result.current).toMatchObject({ data: undefined, isPending: true, isError: false });
    await waitFor(() => expect(first.result.current.data).toEqual({ plans: 3 }));
    expect(second.result.current).toMatchObject({ data: { plans: 3 }, isPending: false, isError: false });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('reuses a fresh answer on the next mount and fetches again once it is stale', async () => {
    const fetch = vi.fn(async () => 'answer');
    const fresh = { key: 'test/fresh', fetch, staleTime: 60_000 };
    const first = renderHook(() => usePublicQuery(fresh));
    await waitFor(() => expect(first.result.current.data).toBe('answer'));
    first.unmount();
    renderHook(() => usePublicQuery(fresh));
    expect(fetch).toHaveBeenCalledTimes(1);
    renderHook(() => usePublicQuery({ ...fresh, staleTime: 0 }));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2));
  });

  it('retries once after a second, then reports the error', async () => {
    vi.useFakeTimers();
    const failure = new Error('down');
    const fetch = vi.fn(async () => {
      throw failure;
    });
    const { result } = renderHook(() => usePublicQuery({ key: 'test/retry', fetch }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_000);
    });
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(result.current).toMatchObject({ data: undefined, error: failure, isError: true, isPending: true });
  });

  it('keeps the last answer when a later fetch fails, and refreshes on its interval', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const fetch = vi.fn(async () => {
      calls += 1;
      if (calls === 2) throw new Error('blip');
      return calls;
    });
    const { result } = renderHook(() => usePublicQuery({ key: 'test/interval', fetch, refetchInterval: 60_000, retry: 0 }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(result.current.data).toBe(1);
    const firstAnswerAt = result.current.dataUpdatedAt;
    expect(firstAnswerAt).toBe(Date.now());
    await act(async () => {
      await vi.advanceTimersByTimeAsync(60_000);
    });
    // The kept answer keeps the time it was fetched, so a page can tell how old it is.
    expect(result.current).toMatchObject({ data: 1, isError: true, isPending: false, dataUpdatedAt: firstAnswerAt });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(60_000);
    });
    expect(result.current).toMatchObject({ data: 3, isError: false });
  });

  it('fetchPublicQuery fills the cache for later readers', async () => {
    await fetchPublicQuery({ key: 'test/prefetch', fetch: async () => 42 });
    const fetch = vi.fn(async () => 0);
    const { result } = renderHook(() => usePublicQuery({ key: 'test/prefetch', fetch, staleTime: 60_000 }));
    expect(result.current.data).toBe(42);
    expect(fetch).not.toHaveBeenCalled();
  });
});
