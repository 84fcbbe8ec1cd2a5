import type { ExternalToast } from 'sonner';

type ToastKind = 'success' | 'error' | 'info';
export type ToastOptions = Pick<ExternalToast, 'id' | 'description' | 'duration'>;

let requested = false;
let sonner: Promise<typeof import('sonner')> | null = null;
const listeners = new Set<() => void>();

/** Loads sonner on the first toast and asks the root to mount its toaster (sonner replays toasts created before it subscribes). */
function show(kind: ToastKind, message: string, options?: ToastOptions): void {
  if (!requested) {
    requested = true;
    for (const listener of listeners) listener();
  }
  // One import for every call, so they reach sonner in order; a failed load is tried again by the next toast.
  sonner ??= import('sonner').catch((error: unknown) => {
    sonner = null;
    throw error;
  });
  sonner.then(({ toast: sonnerToast }) => sonnerToast[kind](message, options)).catch(() => undefined);
}

/**
 * The app's toasts, with sonner's calls. Sonner (its toaster and styles) loads on the first
 * toast instead of with every page; the calls wait in order until it has.
 */
export const toast = {
  success: (message: string, options?: ToastOptions) => show('success', message, options),
  error: (message: string, options?: ToastOptions) => show('error', message, options),
  info: (message: string, options?: ToastOptions) => show('info', message, options),
};

/** Whether a toast has been asked for yet: the root mounts the toaster from then on. */
export const toasterStore = {
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  getSnapshot: (): boolean => requested,
  getServerSnapshot: (): boolean => false,
};
