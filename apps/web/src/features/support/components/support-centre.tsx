import { SUPPORT } from '@conductor/shared';
import { Search } from 'lucide-react';
import { useState } from 'react';
import { ContactOptions } from './contact-options';
import { type FaqFilter, FaqSection } from './faq-section';
import { ContactDetails, PopularResources } from './help-sidebar';
import { MyTickets } from './my-tickets';
import { StatusCard } from './status-card';
import { TicketForm, type TicketPrefill } from './ticket-form';

const LIVE_CHAT_NOTE = `Live chat is staffed ${SUPPORT.hours}, and available 24/7 for Pro+ customers. Tell us what you need below: your message goes straight to the support team, and we reply ${SUPPORT.responseTime}.`;

/** The help centre: search, contact options, FAQ, system status, resources, contact details and the ticket form. */
export function SupportCentre() {
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState<FaqFilter>('All');
  const [prefill, setPrefill] = useState<TicketPrefill | null>(null);

  return (
    <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 lg:px-8">
      <div className="mx-auto max-w-2xl text-center">
        <p className="text-sm font-semibold text-primary">Help Center</p>
        <h1 className="mt-2 text-4xl font-semibold tracking-tight text-balance sm:text-5xl">How can we help?</h1>
        <p className="mt-4 text-lg text-muted-foreground text-pretty">
          Search the FAQ, check system status, or open a ticket with our team.
        </p>
        <div className="relative mt-8">
          <label htmlFor="support-search" className="sr-only">
            Search for help
          </label>
          <Search className="pointer-events-none absolute top-1/2 left-4 size-5 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <input
            id="support-search"
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            placeholder="Search for help…"
            className="h-12 w-full rounded-lg border border-input bg-card pr-4 pl-12 text-base shadow-sm placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-ring"
          />
        </div>
      </div>

      <div className="mt-12">
        <ContactOptions
          onLiveChat={() => setPrefill({ subject: 'Live chat request', category: 'technical', note: LIVE_CHAT_NOTE, nonce: Date.now() })}
        />
      </div>

      <div className="mt-14 grid gap-10 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <FaqSection query={query} category={category} onCategory={setCategory} />
        <aside className="space-y-6">
          <StatusCard />
          <PopularResources />
          <ContactDetails />
        </aside>
      </div>

      <section
        id="ticket"
        aria-labelledby="ticket-title"
        className="mt-16 scroll-mt-24 rounded-xl border border-border bg-card p-6 shadow-sm sm:p-8"
      >
        <h2 id="ticket-title" className="text-2xl font-semibold tracking-tight">
          Submit a Support Ticket
        </h2>
        <p className="mt-1 mb-6 text-sm text-muted-foreground">
          We answer {SUPPORT.hours} and reply {SUPPORT.responseTime}. You&apos;ll get your ticket number by e-mail.
        </p>
        <TicketForm prefill={prefill} />
        <MyTickets />
      </section>
    </div>
  );
}
