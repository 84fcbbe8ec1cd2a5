import { MESSAGES } from '@conductor/shared';
import { FAQ_CATEGORIES, FAQ_ITEMS, type FaqCategory, matchesFaq } from '@conductor/shared/constants/faq';
import { ChevronDown } from 'lucide-react';
import { Link } from 'react-router';
import { cn } from '~/lib/cn';

export type FaqFilter = FaqCategory | 'All';

/** The FAQ, filtered by category and by the search text; each answer expands and collapses. */
export function FaqSection({
  query,
  category,
  onCategory,
}: {
  query: string;
  category: FaqFilter;
  onCategory: (category: FaqFilter) => void;
}) {
  const items = FAQ_ITEMS.filter((item) => (category === 'All' || item.category === category) && matchesFaq(item, query));
  return (
    <section aria-labelledby="faq-title">
      <h2 id="faq-title" className="text-2xl font-semibold tracking-tight">
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
      {items.length === 0 ? (
        <p className="mt-6 rounded-lg border border-dashed border-border px-4 py-8 text-center text-muted-foreground" role="status">
          {MESSAGES.support.noResults}
        </p>
      ) : (
        <ul className="mt-6 divide-y divide-border rounded-lg border border-border bg-card" aria-label="Questions">
          {items.map((item) => (
            <li key={item.question}>
              <details className="group">
                <summary className="flex cursor-pointer list-none items-center justify-between gap-4 px-4 py-4 font-medium [&::-webkit-details-marker]:hidden">
                  <span>{item.question}</span>
                  <ChevronDown className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-180" aria-hidden />
                </summary>
                <div className="px-4 pb-4 text-sm leading-6 text-muted-foreground">
                  <p>{item.answer}</p>
                  <p className="mt-2 flex flex-wrap items-center gap-3 text-xs">
                    <span className="rounded-full bg-muted px-2 py-0.5">{item.category}</span>
                    {item.link && (
                      <Link to={item.link.href} className="font-medium text-primary hover:underline">
                        {item.link.label} →
                      </Link>
                    )}
                  </p>
                </div>
              </details>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
