import { lazy, useState } from 'react';
import { Prerendered } from '~/components/ui/prerendered';
import { type FaqFilter, FaqSection } from './faq-section';
import { LazyTicketForm } from './lazy-ticket-form';
import { StatusCard } from './status-card';

const sections = () => import('./support-centre-sections');
const SupportIntro = lazy(() => sections().then((module) => ({ default: module.SupportIntro })));
const ContactOptions = lazy(() => sections().then((module) => ({ default: module.ContactOptions })));
const SearchLabel = lazy(() => sections().then((module) => ({ default: module.SearchLabel })));
const HelpResources = lazy(() => sections().then((module) => ({ default: module.HelpResources })));
const TicketIntro = lazy(() => sections().then((module) => ({ default: module.TicketIntro })));

/**
 * The help centre: search, contact options, FAQ, system status, resources, contact details and
 * the ticket form. The text is prerendered and kept as HTML when the page hydrates; the search,
 * the FAQ filter, Start Chat (which fills the ticket form in for a live chat) and the status
 * are interactive, and the ticket form loads when it is first used.
 */
export function SupportCentre() {
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState<FaqFilter>('All');
  const [liveChat, setLiveChat] = useState<number | null>(null);
  const [results, setResults] = useState<number>();

  return (
    <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 lg:px-8">
      <div className="mx-auto max-w-2xl text-center">
        <Prerendered content={SupportIntro} />
        <div className="relative mt-8">
          <Prerendered content={SearchLabel} />
          <input
            id="support-search"
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            placeholder="Search for help…"
            className="h-12 w-full rounded-lg border border-input bg-card pr-4 pl-12 text-base shadow-sm placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-ring"
          />
        </div>
        {/* The FAQ it filters is below the contact options (a phone's screen or more away): say what it found, with a way there. */}
        <p role="status">
          {query.trim() && results !== undefined && (
            <a
              href={results || category !== 'All' ? '#faq-title' : '#ticket'}
              data-testid="search-results"
              className="mt-3 inline-block text-sm text-primary hover:underline"
            >
              {results
                ? `${results} matching ${results > 1 ? 'answers' : 'answer'} in ${category === 'All' ? 'the FAQ' : category} below`
                : category === 'All'
                  ? 'No matching answers: open a ticket'
                  : `No matching answers in ${category}`}
            </a>
          )}
        </p>
      </div>

      {/* biome-ignore lint/a11y/noStaticElementInteractions: takes the clicks of the prerendered Start Chat button, a real button (keyboard-operable). */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: keyboard activation of the button fires this same click event. */}
      <div className="mt-12" onClick={(event) => (event.target as Element).closest('[data-live-chat]') && setLiveChat(Date.now())}>
        <Prerendered content={ContactOptions} />
      </div>

      <div className="mt-14 grid gap-10 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <FaqSection query={query} category={category} onCategory={setCategory} onResults={setResults} />
        <aside className="space-y-6">
          <StatusCard />
          <Prerendered content={HelpResources} />
        </aside>
      </div>

      <section
        id="ticket"
        aria-labelledby="ticket-title"
        className="mt-16 scroll-mt-24 rounded-xl border border-border bg-card p-6 shadow-sm sm:p-8"
      >
        <Prerendered content={TicketIntro} />
        <LazyTicketForm liveChat={liveChat} />
      </section>
    </div>
  );
}
