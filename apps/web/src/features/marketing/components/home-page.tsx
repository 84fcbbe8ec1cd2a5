import { HOME_NOTES } from '@conductor/shared';
import { Check } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '~/components/ui/button';

export function HomePage() {
  return (
    <>
      <section className="relative overflow-hidden">
        <div className="mx-auto max-w-7xl px-4 pt-20 pb-16 text-center sm:px-6 lg:px-8">
          <h1 className="mx-auto max-w-4xl text-4xl font-semibold tracking-tight text-balance sm:text-6xl">
            One API for every LLM. Routed, resilient and cost-aware.
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-muted-foreground text-pretty">
            Conductor is an OpenAI-compatible gateway that routes requests across OpenAI, Anthropic, Google, Azure, Mistral and Cohere with
            automatic failover, load balancing and up to 40% lower cost.
          </p>
          <div className="mt-10 flex flex-col items-center justify-center gap-3 sm:flex-row">
            <Link to="/register" className={buttonClasses('primary', 'lg')}>
              Start Free Trial
            </Link>
            <Link to="/docs/quick-start" className={buttonClasses('secondary', 'lg')}>
              Read the docs
            </Link>
          </div>
          <ul className="mt-8 flex flex-wrap items-center justify-center gap-x-6 gap-y-2 text-sm text-muted-foreground">
            {HOME_NOTES.map((note) => (
              <li key={note} className="flex items-center gap-1.5">
                <Check className="size-4 text-success" aria-hidden="true" />
                {note}
              </li>
            ))}
          </ul>
        </div>
      </section>
      <section id="features" className="mx-auto max-w-7xl scroll-mt-20 px-4 py-16 sm:px-6 lg:px-8">
        <h2 className="text-3xl font-semibold tracking-tight">Features</h2>
      </section>
    </>
  );
}
