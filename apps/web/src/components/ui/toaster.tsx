import { lazy, Suspense, useSyncExternalStore } from 'react';
import { toasterStore } from '~/lib/toast';

const SonnerToaster = lazy(() => import('./sonner-toaster'));

/** Mounts sonner's toaster once the first toast is asked for (see `~/lib/toast`), so pages that never toast never load it. */
export function Toaster() {
  const requested = useSyncExternalStore(toasterStore.subscribe, toasterStore.getSnapshot, toasterStore.getServerSnapshot);
  if (!requested) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster />
    </Suspense>
  );
}
