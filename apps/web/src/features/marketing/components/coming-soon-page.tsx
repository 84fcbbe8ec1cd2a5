import { BarChart3, BookOpen, LayoutDashboard, Route, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '~/components/ui/button';
import { Logo } from '~/components/ui/logo';
import { ThemeToggle } from '~/components/ui/theme-toggle';
import { useSiteMode } from '~/lib/site-mode';
import { HealthBadge } from './health-badge';
import { WaitlistForm } from './waitlist-form';

const FEATURES = [
  {
    icon: Route,
    title: 'Intelligent routing',
    body: 'Send every request to the best provider for its model class, with failover before the first byte when one goes down.',
  },
  {
    icon: BarChart3,
    title: 'Cost analytics',
    body: 'Tokens, cost and latency for every call, by model and key, so you see where the money goes and how much routing saved.',
  },
  {
    icon: ShieldCheck,
    title: 'Secure by default',
    body: 'Hashed API keys, provider keys encrypted with AES-256-GCM, and no prompt or completion bodies stored.',
  },
] as const;

const TRUST = [
  { value: '99.9%', label: 'uptime' },
  { value: '15+', label: 'providers' },
  { value: '<245ms', label: 'latency' },
  { value: '70%', label: 'cost reduction' },
] as const;

/** `/` when SITE_MODE=waitlist: status badge, headline, waitlist form, feature trio, trust strip, simplified footer. */
export function ComingSoonPage() {
  // `/` holds both readings until hydration: the badge (and its polling) starts only when this one is the page shown.
  const shown = useSiteMode() === 'waitlist';
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#waitlist-main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-4 focus:left-4 focus:z-50 focus:rounded-md focus:bg-card focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <header className="mx-auto flex w-full max-w-6xl items-center justify-between gap-4 px-4 py-5 sm:px-6 lg:px-8">
        <Logo />
        <nav aria-label="Coming soon" className="flex items-center gap-1">
          <Link to="/docs" className={buttonClasses('ghost', 'sm')}>
            Docs
          </Link>
          <Link to="/login" className={buttonClasses('ghost', 'sm')}>
            Sign In
          </Link>
          <ThemeToggle />
        </nav>
      </header>

      <main id="waitlist-main" className="flex-1">
        <section className="relative overflow-hidden">
          <div
            aria-hidden="true"
            className="pointer-events-none absolute inset-x-0 -top-40 -z-10 mx-auto h-[28rem] max-w-4xl rounded-full bg-accent opacity-60 blur-3xl"
          />
          <div className="mx-auto flex max-w-3xl flex-col items-center px-4 pt-12 pb-16 text-center sm:pt-20">
            <div className="min-h-8">{shown && <HealthBadge />}</div>
            <p className="mt-6 text-sm font-semibold tracking-wide text-primary uppercase">Launching soon</p>
            <h1 className="mt-3 text-4xl font-semibold tracking-tight text-balance sm:text-6xl">
              The LLM gateway that cuts your AI bill by up to 70%
            </h1>
            <p className="mt-6 max-w-2xl text-lg text-muted-foreground text-pretty">
              One OpenAI-compatible API in front of every major model provider, with automatic failover, load balancing and cost-optimised
              routing. Join the waitlist and be first in when we open the doors.
            </p>
            <div className="mt-10 w-full">
              <WaitlistForm />
            </div>
            <div className="mt-4 flex flex-wrap items-center justify-center gap-3">
              <Link to="/portal" className={buttonClasses('secondary', 'md')}>
                <LayoutDashboard className="size-4" aria-hidden="true" />
                Developer portal
              </Link>
              <Link to="/docs" className={buttonClasses('ghost', 'md')}>
                <BookOpen className="size-4" aria-hidden="true" />
                Read the docs
              </Link>
            </div>
          </div>
        </section>

        <section aria-labelledby="coming-soon-features" className="mx-auto max-w-6xl px-4 pb-16 sm:px-6 lg:px-8">
          <h2 id="coming-soon-features" className="sr-only">
            What you get
          </h2>
          <ul className="grid gap-4 md:grid-cols-3">
            {FEATURES.map((feature) => (
              <li key={feature.title} className="rounded-xl border border-border bg-card p-6 shadow-sm">
                <span className="flex size-10 items-center justify-center rounded-lg bg-accent text-accent-foreground">
                  <feature.icon className="size-5" aria-hidden="true" />
                </span>
                <h3 className="mt-4 font-semibold">{feature.title}</h3>
                <p className="mt-2 text-sm text-muted-foreground">{feature.body}</p>
              </li>
            ))}
          </ul>
        </section>

        <section aria-label="Why teams choose Conductor" className="border-y border-border bg-muted/40">
          <dl className="mx-auto grid max-w-6xl grid-cols-2 gap-6 px-4 py-10 text-center sm:px-6 md:grid-cols-4 lg:px-8">
            {TRUST.map((item) => (
              <div key={item.label} className="flex flex-col-reverse gap-1">
                <dt className="text-sm text-muted-foreground">{item.label}</dt>
                <dd className="text-3xl font-semibold tracking-tight">{item.value}</dd>
              </div>
            ))}
          </dl>
        </section>
      </main>

      <footer className="mx-auto flex w-full max-w-6xl flex-col items-center justify-between gap-4 px-4 py-8 text-sm text-muted-foreground sm:flex-row sm:px-6 lg:px-8">
        <p>© {new Date().getFullYear()} Conductor, Inc. All rights reserved.</p>
        <nav aria-label="Legal and company">
          <ul className="flex flex-wrap justify-center gap-x-5 gap-y-2">
            {[
              { to: '/status', label: 'Status' },
              { to: '/privacy', label: 'Privacy' },
              { to: '/terms', label: 'Terms' },
              { to: '/contact', label: 'Contact' },
            ].map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="hover:text-foreground">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </footer>
    </div>
  );
}
