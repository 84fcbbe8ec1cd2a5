import { lazy } from 'react';
import { Prerendered } from '~/components/ui/prerendered';
import { LazyTicketForm } from './lazy-ticket-form';

const sections = () => import('./contact-support-sections');
const ContactSupportIntro = lazy(() => sections().then((module) => ({ default: module.ContactSupportIntro })));
const WhatToInclude = lazy(() => sections().then((module) => ({ default: module.WhatToInclude })));

/**
 * /support/contact: every way to reach the team, what to include, and the ticket form. The
 * text is prerendered and kept as HTML when the page hydrates; the ticket form loads when it
 * is first used.
 */
export function ContactSupportPage() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 lg:px-8">
      <Prerendered content={ContactSupportIntro} />
      <div className="mt-12 grid gap-10 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <section aria-labelledby="contact-ticket-title" className="rounded-xl border border-border bg-card p-6 shadow-sm sm:p-8">
          <h2 id="contact-ticket-title" className="text-2xl font-semibold tracking-tight">
            Open a ticket
          </h2>
          <p className="mt-1 mb-6 text-sm text-muted-foreground">You&apos;ll get a ticket number at once, and by e-mail.</p>
          <LazyTicketForm />
        </section>
        <Prerendered content={WhatToInclude} />
      </div>
    </div>
  );
}
