import { afterEach, describe, expect, it, vi } from 'vitest';
import { attachmentFilename, downloadFile } from './download';

vi.mock('./api-client', async (original) => ({
  ...(await original<typeof import('./api-client')>()),
  announceFailure: vi.fn(() => false),
}));

describe('downloadFile', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('does not cut a file whose transfer outlasts the answer time-out', async () => {
    vi.useFakeTimers();
    let finish: (blob: Blob) => void = () => undefined;
    let signal: AbortSignal | undefined;
    // As with a real fetch, aborting the request's signal fails the body still being read.
    const response = {
      ok: true,
      status: 200,
      headers: new Headers({ 'content-disposition': 'attachment; filename="usage.csv"' }),
      blob: () =>
        new Promise<Blob>((resolve, reject) => {
          finish = resolve;
          signal?.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')));
        }),
    };
    vi.stubGlobal(
      'fetch',
      vi.fn((_url: string, init: RequestInit) => {
        signal = init.signal ?? undefined;
        return Promise.resolve(response);
      }),
    );
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }));
    const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const download = downloadFile('/api/v1/observability/usage/export', 'fallback.csv');
    await vi.advanceTimersByTimeAsync(45_000);
    expect(signal?.aborted).toBe(false);
    finish(new Blob(['a,b\n']));
    await download;
    expect(clicked).toHaveBeenCalledOnce();
    expect((clicked.mock.contexts[0] as HTMLAnchorElement).download).toBe('usage.csv');
  });

  it('reads the file name from content-disposition, the encoded one first', () => {
    expect(attachmentFilename(`attachment; filename="a.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`)).toBe('résumé.pdf');
    expect(attachmentFilename('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(attachmentFilename(null)).toBeNull();
  });
});
