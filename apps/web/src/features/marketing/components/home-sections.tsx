import { HOME_NOTES } from '@conductor/shared';
import { Check, Quote } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '~/components/ui/button';
import { HOME_FEATURES, HOME_STATS, TESTIMONIALS } from '../content/home';
import { CodeSample } from './code-sample';

/*
 * The home page's static parts. Prerendered into the page and kept as HTML when it
 * hydrates (see `Prerendered`), so they load only on a client-side navigation to it.
 */

/** The hero's eyebrow, headline and lead. */
export function HeroIntro() {
  return (
    <>
      <p className="mx-auto inline-flex items-center gap-2 rounded-full border border-border bg-card px-3 py-1 text-sm text-muted-foreground shadow-sm">
        <span className="size-1.5 rounded-full bg-primary" aria-hidden="true" />
        OpenAI, Anthropic, Google, Azure OpenAI, Mistral and Cohere
      </p>
      <h1 className="mx-auto mt-6 max-w-4xl text-4xl font-semibold tracking-tight text-balance sm:text-6xl">
        One API for every LLM. Routed, resilient and cost-aware.
      </h1>
      <p className="mx-auto mt-6 max-w-2xl text-lg text-muted-foreground text-pretty">
        Conductor is an OpenAI-compatible gateway that routes requests across six model providers with automatic failover, load balancing
        and up to 40% lower cost. Change one line, the base URL, and keep shipping.
      </p>
    </>
  );
}

/** The hero's notes and code sample. */
export function HeroDetails() {
  return (
    <>
      <ul className="mt-8 flex flex-wrap items-center justify-center gap-x-6 gap-y-2 text-sm text-muted-foreground">
        {HOME_NOTES.map((note) => (
          <li key={note} className="flex items-center gap-1.5">
            <Check className="size-4 text-success" aria-hidden="true" />
            {note}
          </li>
        ))}
      </ul>
      <div className="mx-auto mt-14 max-w-3xl text-left">
        <CodeSample />
      </div>
    </>
  );
}

/** Numbers, features (#features), testimonials and the closing call to action. */
export function HomeSections() {
  return (
    <>
      <section aria-label="Conductor in numbers" className="border-y border-border bg-muted/40">
        <dl className="mx-auto grid max-w-7xl grid-cols-2 gap-8 px-4 py-12 text-center sm:px-6 md:grid-cols-4 lg:px-8">
          {HOME_STATS.map((stat) => (
            <div key={stat.label} className="flex flex-col-reverse gap-1">
              <dt className="text-sm text-muted-foreground">{stat.label}</dt>
              <dd className="text-3xl font-semibold tracking-tight sm:text-4xl">{stat.value}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section id="features" aria-labelledby="features-title" className="mx-auto max-w-7xl scroll-mt-20 px-4 py-20 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold text-primary">Features</p>
          <h2 id="features-title" className="mt-2 text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
            Everything between your app and the models
          </h2>
          <p className="mt-4 text-muted-foreground">
            Reliability, visibility and cost control in one gateway, without rewriting a line of your model code.
          </p>
        </div>
        <ul className="mt-12 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {HOME_FEATURES.map((feature) => (
            <li key={feature.title} className="rounded-xl border border-border bg-card p-6 shadow-sm">
              <span className="flex size-10 items-center justify-center rounded-lg bg-accent text-accent-foreground">
                <feature.icon className="size-5" aria-hidden="true" />
              </span>
              <h3 className="mt-4 text-lg font-semibold">{feature.title}</h3>
              <p className="mt-2 text-sm leading-6 text-muted-foreground">{feature.body}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="testimonials-title" className="bg-muted/40 py-20">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <h2 id="testimonials-title" className="text-center text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
            Trusted by teams shipping AI to production
          </h2>
          <ul className="mt-12 grid gap-6 lg:grid-cols-3">
            {TESTIMONIALS.map((testimonial) => (
              <li key={testimonial.name}>
                <figure className="flex h-full flex-col rounded-xl border border-border bg-card p-6 shadow-sm">
                  <Quote className="size-6 text-primary" aria-hidden="true" />
                  <blockquote className="mt-4 flex-1 text-pretty">
                    <p>{testimonial.content}</p>
                  </blockquote>
                  <figcaption className="mt-6 flex items-center gap-3">
                    <img
                      src={testimonial.avatar}
                      alt=""
                      width={48}
                      height={48}
                      loading="lazy"
                      decoding="async"
                      className="size-12 rounded-full"
                    />
                    <div>
                      <p className="font-semibold">{testimonial.name}</p>
                      <p className="text-sm text-muted-foreground">
                        {testimonial.role}, {testimonial.company}
                      </p>
                    </div>
                  </figcaption>
                </figure>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="cta-title" className="mx-auto max-w-7xl px-4 py-20 sm:px-6 lg:px-8">
        <div className="rounded-2xl bg-primary px-6 py-14 text-center text-primary-foreground shadow-lg sm:px-12">
          <h2 id="cta-title" className="text-3xl font-semibold tracking-tight text-balance sm:text-4xl">
            Route your first request in five minutes
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-primary-foreground/90">
            Create a free account, grab a test key and call the sandbox. Upgrade when you ship; every paid plan starts with a 14-day trial.
          </p>
          <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
            <Link to="/register" className={buttonClasses('secondary', 'lg')}>
              Start Free Trial
            </Link>
            <Link
              to="/docs"
              className="inline-flex h-12 items-center justify-center gap-2 rounded-md px-6 text-base font-medium text-primary-foreground ring-1 ring-primary-foreground/50 transition-colors hover:bg-primary-foreground/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary-foreground"
            >
              Read the Docs
            </Link>
          </div>
        </div>
      </section>
    </>
  );
}
