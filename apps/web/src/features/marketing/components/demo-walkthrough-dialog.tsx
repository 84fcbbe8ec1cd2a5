import { ChevronLeft, ChevronRight, Pause, Play } from 'lucide-react';
import { type RefObject, useEffect, useState } from 'react';
import { Button } from '~/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '~/components/ui/dialog';
import { cn } from '~/lib/cn';
import { DEMO_STEPS } from '../content/home';

/** Each screen stays this long while the walkthrough plays. */
export const DEMO_STEP_MS = 5_000;

function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** The dialog itself, loaded on the first click of 'Watch Demo' (keeps radix and the walkthrough out of the landing bundle). */
export default function DemoWalkthroughDialog({
  open,
  onOpenChange,
  returnFocusTo,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The 'Watch Demo' button: the dialog has no radix Trigger, so focus is handed back explicitly. */
  returnFocusTo: RefObject<HTMLButtonElement | null>;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className="max-w-4xl p-4 sm:p-6"
        closeLabel="Close demo"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          returnFocusTo.current?.focus();
        }}
      >
        {open && <Walkthrough />}
      </DialogContent>
    </Dialog>
  );
}

function Walkthrough() {
  const [index, setIndex] = useState(0);
  // Plays on its own unless the visitor asked for less motion; pausing is always one click away.
  const [playing, setPlaying] = useState(() => !prefersReducedMotion());
  const step = DEMO_STEPS[index] ?? DEMO_STEPS[0]!;
  const last = DEMO_STEPS.length - 1;

  // biome-ignore lint/correctness/useExhaustiveDependencies: a manual step change restarts the timer, so each screen gets its full time
  useEffect(() => {
    if (!playing) return;
    const timer = window.setTimeout(() => setIndex((current) => (current === last ? 0 : current + 1)), DEMO_STEP_MS);
    return () => window.clearTimeout(timer);
  }, [playing, index, last]);

  const go = (next: number) => setIndex(Math.min(last, Math.max(0, next)));

  return (
    <div>
      <DialogTitle>Conductor in five steps</DialogTitle>
      <DialogDescription>From sign-up to savings: the product walkthrough.</DialogDescription>
      <figure className="mt-4">
        <div className="relative overflow-hidden rounded-lg border border-border bg-muted" style={{ aspectRatio: '1200 / 750' }}>
          {DEMO_STEPS.map((item, itemIndex) => (
            <img
              key={item.image}
              src={item.image}
              alt={itemIndex === index ? `${item.title}: ${item.caption}` : ''}
              aria-hidden={itemIndex === index ? undefined : true}
              width={1200}
              height={750}
              className={cn(
                'absolute inset-0 size-full object-contain transition-opacity duration-300',
                itemIndex === index ? 'opacity-100' : 'opacity-0',
              )}
            />
          ))}
        </div>
        <figcaption className="mt-4 min-h-16" aria-live={playing ? 'off' : 'polite'}>
          <p className="text-sm font-medium text-primary">
            Step {index + 1} of {DEMO_STEPS.length}
          </p>
          <p className="mt-1 font-semibold" data-testid="demo-step-title">
            {step.title}
          </p>
          <p className="mt-1 text-sm text-muted-foreground">{step.caption}</p>
        </figcaption>
      </figure>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <Button variant="secondary" size="icon" onClick={() => go(index - 1)} disabled={index === 0} aria-label="Previous step">
            <ChevronLeft className="size-5" aria-hidden="true" />
          </Button>
          <Button variant="secondary" size="icon" onClick={() => go(index + 1)} disabled={index === last} aria-label="Next step">
            <ChevronRight className="size-5" aria-hidden="true" />
          </Button>
          <Button variant="ghost" size="md" onClick={() => setPlaying((value) => !value)}>
            {playing ? <Pause className="size-4" aria-hidden="true" /> : <Play className="size-4" aria-hidden="true" />}
            {playing ? 'Pause' : 'Play'}
          </Button>
        </div>
        <ol className="flex items-center gap-1.5" aria-label="Steps">
          {DEMO_STEPS.map((item, itemIndex) => (
            <li key={item.image}>
              <button
                type="button"
                onClick={() => go(itemIndex)}
                aria-label={`Step ${itemIndex + 1}: ${item.title}`}
                aria-current={itemIndex === index ? 'step' : undefined}
                className="flex size-6 items-center justify-center rounded-full"
              >
                <span className={cn('block h-2 rounded-full transition-all', itemIndex === index ? 'w-5 bg-primary' : 'w-2 bg-input')} />
              </button>
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}
