import { SUPPORT } from '@conductor/shared';
import { Clock, Mail, MessageCircle } from 'lucide-react';
import { Link } from 'react-router';
import { Card } from '~/components/ui/card';

/*
 * /support/contact's static parts: prerendered, and kept as HTML when the page hydrates
 * (see `Prerendered`); they load only on a client-side navigation to the page.
 */

const CHECKLIST = [
  'The x-request-id header of a failing request (every API response has one)',
  'The model, the routing policy and roughly when it happened (with your time zone)',
  'The full error body: status, error.type and error.code',
  'A screenshot or log excerpt, attached as PNG, JPG or PDF (never include API keys)',
];

/** The page's title, and its three ways to reach the team: e-mail, live chat and service status. */
export function ContactSupportIntro() {
  return (
    <>
      <div className="max-w-3xl">
        <p className="text-sm font-semibold text-primary">Support</p>
        <h1 className="mt-2 text-4xl font-semibold tracking-tight text-balance sm:text-5xl">Contact Support</h1>
        <p className="mt-4 text-lg text-muted-foreground text-pretty">
          {SUPPORT.hours}. We reply to e-mail and tickets {SUPPORT.responseTime}.
        </p>
      </div>
      <ContactChannels />
    </>
  );
}

function ContactChannels() {
  return (
    <div className="mt-10 grid gap-4 md:grid-cols-3">
      <Card className="p-6">
        <Mail className="size-5 text-primary" aria-hidden />
        <h2 className="mt-3 font-semibold">E-mail</h2>
        <a href={`mailto:${SUPPORT.email}`} className="mt-1 block text-sm font-medium text-primary hover:underline">
          {SUPPORT.email}
        </a>
        <p className="mt-1 text-sm text-muted-foreground">Reply {SUPPORT.responseTime}.</p>
      </Card>
      <Card className="p-6">
        <MessageCircle className="size-5 text-primary" aria-hidden />
        <h2 className="mt-3 font-semibold">Live chat</h2>
        <p className="mt-1 text-sm text-muted-foreground">
          {SUPPORT.hours}; 24/7 for Pro+ customers. Start it from the{' '}
          <Link to="/support" className="font-medium text-primary hover:underline">
            help centre
          </Link>
          .
        </p>
      </Card>
      <Card className="p-6">
        <Clock className="size-5 text-primary" aria-hidden />
        <h2 className="mt-3 font-semibold">Service status</h2>
        <p className="mt-1 text-sm text-muted-foreground">
          Check the{' '}
          <Link to="/status" className="font-medium text-primary hover:underline">
            status page
          </Link>{' '}
          first: if a provider is having an incident, it is there.
        </p>
      </Card>
    </div>
  );
}

/** What a ticket should include, and where billing and sales questions go. */
export function WhatToInclude() {
  return (
    <aside>
      <h2 className="font-semibold">What to include</h2>
      <ul className="mt-3 list-disc space-y-2 pl-5 text-sm leading-6 text-muted-foreground">
        {CHECKLIST.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      <p className="mt-6 text-sm text-muted-foreground">
        Billing questions and plan changes: choose the <strong className="text-foreground">Billing &amp; Plans</strong> category. Sales and
        partnerships:{' '}
        <Link to="/contact" className="font-medium text-primary hover:underline">
          contact us
        </Link>
        .
      </p>
    </aside>
  );
}
