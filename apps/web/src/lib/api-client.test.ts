import { afterEach, describe, expect, it, vi } from 'vitest';
import { onServerError, publicApi } from './api-client';

describe('api client server errors', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('a background read’s 5xx fails quietly (its page shows that); any other raises the global server-error toast', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ status: 'outage' }), { status: 503 })),
    );
    const heard = vi.fn();
    const off = onServerError(heard);
    try {
      await expect(publicApi.get('/health', { background: true })).rejects.toMatchObject({ status: 503, announced: false });
      expect(heard).not.toHaveBeenCalled();
      // Announced: the caller's own failure toast stays quiet (toastFailure).
      await expect(publicApi.get('/health')).rejects.toMatchObject({ status: 503, announced: true });
      expect(heard).toHaveBeenCalledTimes(1);
    } finally {
      off();
    }
  });
});
