import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Link } from 'react-router';
import { docsHref, neighbours } from '../docs-registry';

/** Previous / next section links, in side-navigation order. */
export function DocsPager({ slug }: { slug: string }) {
  const { previous, next } = neighbours(slug);
  return (
    <nav aria-label="Previous and next" className="mt-16 grid gap-4 border-t border-border pt-8 sm:grid-cols-2">
      {previous ? (
        <Link
          to={docsHref(previous.slug)}
          rel="prev"
          className="group rounded-lg border border-border p-4 transition-colors hover:border-primary/50 hover:bg-muted/50"
        >
          <span className="flex items-center gap-1 text-xs text-muted-foreground">
            <ChevronLeft className="size-3.5" aria-hidden /> Previous
          </span>
          <span className="mt-1 block font-medium group-hover:text-primary">{previous.title}</span>
        </Link>
      ) : (
        <span />
      )}
      {next && (
        <Link
          to={docsHref(next.slug)}
          rel="next"
          className="group rounded-lg border border-border p-4 text-right transition-colors hover:border-primary/50 hover:bg-muted/50 sm:col-start-2"
        >
          <span className="flex items-center justify-end gap-1 text-xs text-muted-foreground">
            Next <ChevronRight className="size-3.5" aria-hidden />
          </span>
          <span className="mt-1 block font-medium group-hover:text-primary">{next.title}</span>
        </Link>
      )}
    </nav>
  );
}
