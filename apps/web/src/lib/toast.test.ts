import { describe, expect, it, vi } from 'vitest';
import { toast, toasterStore } from './toast';

const sonner = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn(), info: vi.fn() }));
vi.mock('sonner', () => ({ toast: sonner }));

describe('toast', () => {
  it('loads nothing until the first toast (pages that never toast never load sonner)', () => {
    expect(toasterStore.getSnapshot()).toBe(false);
    expect(toasterStore.getServerSnapshot()).toBe(false);
  });

  it('asks for the toaster on the first toast and hands every call to sonner in order', async () => {
    const listener = vi.fn();
    toasterStore.subscribe(listener);
    toast.error('first', { id: 'a' });
    toast.success('second', { description: 'more' });
    toast.info('third', { duration: 2_000 });
    expect(toasterStore.getSnapshot()).toBe(true);
    expect(listener).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(sonner.info).toHaveBeenCalled());
    expect(sonner.error).toHaveBeenCalledWith('first', { id: 'a' });
    expect(sonner.success).toHaveBeenCalledWith('second', { description: 'more' });
    expect(sonner.info).toHaveBeenCalledWith('third', { duration: 2_000 });
    expect(sonner.error.mock.invocationCallOrder[0]).toBeLessThan(sonner.success.mock.invocationCallOrder[0] ?? 0);
  });
});
