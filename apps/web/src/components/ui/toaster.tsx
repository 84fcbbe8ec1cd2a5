import { TIMEOUTS_MS } from '@conductor/shared';
import { Toaster as Sonner } from 'sonner';

/** Toasts last 4 seconds, top-right (spec section 9). */
export function Toaster() {
  return <Sonner position="top-right" duration={TIMEOUTS_MS.toast} closeButton theme="system" />;
}
