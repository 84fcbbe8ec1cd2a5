import { MESSAGES, SUPPORT } from '@conductor/shared';
import { FAQ_ITEMS } from '@conductor/shared/constants/faq';
import {
  BookOpen,
  ChevronDown,
  Clock,
  FileCode,
  Gauge,
  KeyRound,
  Mail,
  MessageCircle,
  Search,
  ShieldAlert,
  Users,
  Zap,
} from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '~/components/ui/button';
import { Card } from '~/components/ui/card';
import { Skeleton } from '~/components/ui/skeleton';

/*
 * The support centre's static parts: prerendered, and kept as HTML when the page hydrates
 * (see `Prerendered`); they load only on a client-side navigation to /support.
 */

export function SupportIntro() {
  return (
    <>
      <p className="text-sm font-semibold text-primary">Help Center</p>
      <h1 className="mt-2 text-4xl font-semibold tracking-tight text-balance sm:text-5xl">How can we help?</h1>
      <p className="mt-4 text-lg text-muted-foreground text-pretty">Search the FAQ, check system status, or open a ticket with our team.</p>
    </>
  );
}

/** The search box's label and icon (the box is interactive: `SupportCentre`). */
export function SearchLabel() {
  return (
    <>
      <label htmlFor="support-search" className="sr-only">
        Search for help
      </label>
      <Search className="pointer-events-none absolute top-1/2 left-4 size-5 -translate-y-1/2 text-muted-foreground" aria-hidden />
    </>
  );
}

/**
 * Live Chat, Email Support and Community Forum. The Start Chat button has no handler of its
 * own: `SupportCentre` takes its clicks (`data-live-chat`).
 */
export function ContactOptions() {
  return (
    <div className="grid gap-4 md:grid-cols-3">
      <Card className="flex flex-col p-6">
        <MessageCircle className="size-6 text-primary" aria-hidden />
        <h2 className="mt-4 font-semibold">Live Chat</h2>
        <p className="mt-1 flex-1 text-sm text-muted-foreground">Chat with our team {SUPPORT.hours}. Available 24/7 for Pro+ customers.</p>
        <button type="button" data-live-chat="" className={buttonClasses('primary', 'md', 'mt-4 w-full')}>
          Start Chat
        </button>
      </Card>
      <Card className="flex flex-col p-6">
        <Mail className="size-6 text-primary" aria-hidden />
        <h2 className="mt-4 font-semibold">Email Support</h2>
        <p className="mt-1 flex-1 text-sm text-muted-foreground">
          Write to {SUPPORT.email}. We reply {SUPPORT.responseTime}.
        </p>
        <a href={`mailto:${SUPPORT.email}`} className={buttonClasses('secondary', 'md', 'mt-4 w-full')}>
          Send Email
        </a>
      </Card>
      <Card className="flex flex-col p-6">
        <Users className="size-6 text-primary" aria-hidden />
        <h2 className="mt-4 font-semibold">Community Forum</h2>
        <p className="mt-1 flex-1 text-sm text-muted-foreground">
          Recipes, routing patterns and answers from other teams building on Conductor.
        </p>
        <Link to="/support/community" className={buttonClasses('secondary', 'md', 'mt-4 w-full')}>
          Visit Forum
        </Link>
      </Card>
    </div>
  );
}

/**
 * Every question of the FAQ with its answer, and the message shown when none matches: which
 * ones show is `filterFaq`'s work, from the data attributes it reads.
 */
export function FaqQuestions() {
  return (
    <>
      <ul className="mt-6 divide-y divide-border rounded-lg border border-border bg-card" aria-label="Questions">
        {FAQ_ITEMS.map((item) => (
          <li key={item.question} data-faq-category={item.category}>
            <details className="group">
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 px-4 py-4 font-medium [&::-webkit-details-marker]:hidden">
                <span data-faq-question="">{item.question}</span>
                <ChevronDown className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-180" aria-hidden />
              </summary>
              <div className="px-4 pb-4 text-sm leading-6 text-muted-foreground">
                <p data-faq-answer="">{item.answer}</p>
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
      {/* The live region stays in the page; the message appearing inside it is what screen readers announce. */}
      <div role="status">
        <p
          hidden
          data-faq-empty=""
          className="mt-6 rounded-lg border border-dashed border-border px-4 py-8 text-center text-muted-foreground"
        >
          {MESSAGES.support.noResults}
        </p>
      </div>
    </>
  );
}

/** The system status card's rows while the status loads (`StatusCard`). */
export function StatusLoading() {
  return (
    <div className="mt-4 space-y-3" aria-busy="true">
      <span className="sr-only">Loading system status…</span>
      {[0, 1, 2, 3].map((row) => (
        <Skeleton key={row} className="h-5" />
      ))}
    </div>
  );
}

const RESOURCES = [
  { label: 'Quick Start guide', href: '/docs/quick-start', icon: Zap },
  { label: 'Authentication and API keys', href: '/docs/authentication', icon: KeyRound },
  { label: 'API Reference', href: '/docs/api', icon: FileCode },
  { label: 'Rate limits and quotas', href: '/docs/rate-limiting', icon: Gauge },
  { label: 'Error codes', href: '/docs/error-handling', icon: ShieldAlert },
  { label: 'Best practices', href: '/docs/best-practices', icon: BookOpen },
];

/** Popular Resources and Contact Details, below the system status. */
export function HelpResources() {
  return (
    <div className="space-y-6">
      <Card className="p-6">
        <h2 className="font-semibold">Popular Resources</h2>
        <ul className="mt-4 space-y-2 text-sm">
          {RESOURCES.map(({ label, href, icon: Icon }) => (
            <li key={href}>
              <Link
                to={href}
                className="flex items-center gap-2 rounded-md py-1 text-muted-foreground transition-colors hover:text-primary"
              >
                <Icon className="size-4 shrink-0" aria-hidden />
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </Card>
      <Card className="p-6">
        <h2 className="font-semibold">Contact Details</h2>
        <dl className="mt-4 space-y-3 text-sm">
          <div className="flex gap-3">
            <dt>
              <Mail className="mt-0.5 size-4 text-muted-foreground" aria-label="E-mail" />
            </dt>
            <dd>
              <a href={`mailto:${SUPPORT.email}`} className="font-medium text-primary hover:underline">
                {SUPPORT.email}
              </a>
              <span className="block text-muted-foreground">Reply {SUPPORT.responseTime}</span>
            </dd>
          </div>
          <div className="flex gap-3">
            <dt>
              <Clock className="mt-0.5 size-4 text-muted-foreground" aria-label="Hours" />
            </dt>
            <dd>
              {SUPPORT.hours}
              <span className="block text-muted-foreground">24/7 live chat for Pro+ customers</span>
            </dd>
          </div>
        </dl>
        <Link to="/support/contact" className="mt-4 inline-block text-sm font-medium text-primary hover:underline">
          All ways to reach us →
        </Link>
      </Card>
    </div>
  );
}

/** The ticket form's title and what to expect (the form loads when first used: `LazyTicketForm`). */
export function TicketIntro() {
  return (
    <>
      <h2 id="ticket-title" className="text-2xl font-semibold tracking-tight">
        Submit a Support Ticket
      </h2>
      <p className="mt-1 mb-6 text-sm text-muted-foreground">
        We answer {SUPPORT.hours} and reply {SUPPORT.responseTime}. You&apos;ll get your ticket number by e-mail.
      </p>
    </>
  );
}
