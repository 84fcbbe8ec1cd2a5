import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, onServerError, publicApi } from './api-client';

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
      await expect(publicApi.get('/health', { background: true })).rejects.toBeInstanceOf(ApiError);
      expect(heard).not.toHaveBeenCalled();
      await expect(publicApi.get('/health')).rejects.toMatchObject({ status: 503 });
      expect(heard).toHaveBeenCalledTimes(1);
    } finally {
      off();
    }
  });
});
