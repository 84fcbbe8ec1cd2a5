import { FAQ_CATEGORIES } from '@conductor/shared/constants/faq-categories';
import { lazy, useEffect, useRef, useState } from 'react';
import { Prerendered } from '~/components/ui/prerendered';
import { cn } from '~/lib/cn';
import { type FaqFilter, filterFaq } from './faq-filter';

export type { FaqFilter } from './faq-filter';

const FaqQuestions = lazy(() => import('./support-centre-sections').then((module) => ({ default: module.FaqQuestions })));

/**
 * The FAQ, filtered by category and by the search text; each answer expands and collapses
 * (`<details>`). The questions and answers are prerendered and kept as HTML when the page
 * hydrates: the filter shows and hides them in place (`filterFaq`), so the page loads no FAQ text.
 */
export function FaqSection({
  query,
  category,
  onCategory,
  onResults,
}: {
  query: string;
  category: FaqFilter;
  onCategory: (category: FaqFilter) => void;
  /** How many questions the filter shows, after every change (undefined until they have arrived). */
  onResults?: (count: number | undefined) => void;
}) {
  const root = useRef<HTMLElement>(null);
  // After a client-side navigation the questions arrive later: the filter applies again then.
  const [shown, setShown] = useState(0);
  // One element for the life of the section: the page's re-renders never reach the questions, which the filter rearranges.
  const [questions] = useState(() => <Prerendered content={FaqQuestions} onShow={() => setShown((count) => count + 1)} />);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `shown` changes when the questions arrive: they are filtered then too.
  useEffect(() => {
    if (root.current) onResults?.(filterFaq(root.current, query, category));
  }, [query, category, shown]);
  return (
    <section ref={root} aria-labelledby="faq-title">
      <h2 id="faq-title" className="scroll-mt-24 text-2xl font-semibold tracking-tight">
        Frequently Asked Questions
      </h2>
      <fieldset className="mt-4 flex flex-wrap gap-2">
        <legend className="sr-only">FAQ category</legend>
        {(['All', ...FAQ_CATEGORIES] as const).map((option) => (
          <button
            key={option}
            type="button"
            aria-pressed={category === option}
            onClick={() => onCategory(option)}
            className={cn(
              'h-8 rounded-full border px-3 text-sm font-medium transition-colors',
              category === option
                ? 'border-primary bg-primary text-primary-foreground'
                : 'border-border text-muted-foreground hover:bg-muted hover:text-foreground',
            )}
          >
            {option}
          </button>
        ))}
      </fieldset>
      {questions}
    </section>
  );
}
