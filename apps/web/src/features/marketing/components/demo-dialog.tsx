import { PlayCircle } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { buttonClasses } from '~/components/ui/button';

const DemoWalkthroughDialog = lazy(() => import('./demo-walkthrough-dialog'));

/** 'Watch Demo': a short product walkthrough in a dialog (Escape closes it, focus stays inside while open). */
export function DemoDialog() {
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        ref={trigger}
        type="button"
        className={buttonClasses('secondary', 'lg')}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => {
          setRequested(true);
          setOpen(true);
        }}
      >
        <PlayCircle className="size-5" aria-hidden="true" />
        Watch Demo
      </button>
      {requested && (
        <Suspense fallback={null}>
          <DemoWalkthroughDialog open={open} onOpenChange={setOpen} returnFocusTo={trigger} />
        </Suspense>
      )}
    </>
  );
}
