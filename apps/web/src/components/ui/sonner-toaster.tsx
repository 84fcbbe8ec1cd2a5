import { TIMEOUTS_MS } from '@conductor/shared';
import { Toaster } from 'sonner';

/** Toasts last 4 seconds, top-right (spec section 9). Loaded on the first toast. */
export default function SonnerToaster() {
  return <Toaster position="top-right" duration={TIMEOUTS_MS.toast} closeButton theme="system" />;
}
