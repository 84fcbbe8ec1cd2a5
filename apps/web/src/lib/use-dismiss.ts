import { type RefObject, useEffect, useRef } from 'react';

/**
 * While `open`: Escape closes (and gives focus back to `trigger`), and so does a press anywhere
 * outside the `inside` elements (a press on the trigger is inside: its own click toggles).
 */
export function useDismiss(
  open: boolean,
  close: () => void,
  inside: readonly RefObject<HTMLElement | null>[],
  trigger: RefObject<HTMLElement | null>,
): void {
  const latest = useRef({ close, inside, trigger });
  latest.current = { close, inside, trigger };
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      latest.current.close();
      latest.current.trigger.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node | null;
      if (!latest.current.inside.some((ref) => target && ref.current?.contains(target))) latest.current.close();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);
}
