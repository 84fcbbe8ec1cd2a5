import { Link } from 'react-router';
import { buttonClasses } from '~/components/ui/button';
import { ENTERPRISE_FEATURES, PRICING_FAQ } from '../content/pricing';

/*
 * The pricing page's static parts: prerendered, and kept as HTML when the page hydrates
 * (see `Prerendered`); they load only on a client-side navigation to /pricing.
 */

export function PricingIntro() {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold text-primary">Pricing</p>
      <h1 className="mt-2 text-4xl font-semibold tracking-tight text-balance sm:text-5xl">Simple, transparent pricing</h1>
      <p className="mt-4 text-lg text-muted-foreground text-pretty">
        Start free, upgrade when you ship. Every paid plan includes a 14-day free trial.
      </p>
    </div>
  );
}

/** Enterprise features, the FAQ and the closing call to action. */
export function PricingDetails() {
  return (
    <>
      <section aria-labelledby="enterprise-title" className="mt-20 rounded-2xl border border-border bg-muted/40 p-6 sm:p-10">
        <div className="grid gap-10 lg:grid-cols-[1fr_2fr]">
          <div>
            <h2 id="enterprise-title" className="text-2xl font-semibold tracking-tight">
              Enterprise features
            </h2>
            <p className="mt-3 text-muted-foreground">
              For organisations with scale, security and compliance needs. Talk to us about volume pricing and custom limits.
            </p>
            <Link to="/contact" className={buttonClasses('primary', 'md', 'mt-6')}>
              Talk to sales
            </Link>
          </div>
          <ul className="grid gap-6 sm:grid-cols-2">
            {ENTERPRISE_FEATURES.map((feature) => (
              <li key={feature.title}>
                <h3 className="font-semibold">{feature.title}</h3>
                <p className="mt-1 text-sm text-muted-foreground">{feature.body}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="faq-title" className="mx-auto mt-20 max-w-3xl">
        <h2 id="faq-title" className="text-center text-2xl font-semibold tracking-tight sm:text-3xl">
          Frequently asked questions
        </h2>
        <div className="mt-8 divide-y divide-border rounded-xl border border-border bg-card">
          {PRICING_FAQ.map((item) => (
            <details key={item.question} className="group px-5 py-4 [&_summary::-webkit-details-marker]:hidden">
              <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-md font-medium">
                <h3>{item.question}</h3>
                <span aria-hidden="true" className="text-xl leading-none text-muted-foreground transition-transform group-open:rotate-45">
                  +
                </span>
              </summary>
              <p className="mt-3 text-sm leading-6 text-muted-foreground">{item.answer}</p>
            </details>
          ))}
        </div>
      </section>

      <section aria-labelledby="pricing-cta-title" className="mt-20 text-center">
        <h2 id="pricing-cta-title" className="text-2xl font-semibold tracking-tight sm:text-3xl">
          Ready to route smarter?
        </h2>
        <p className="mt-3 text-muted-foreground">Start with the Free plan today, or talk to us about Enterprise.</p>
        <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
          <Link to="/register" className={buttonClasses('primary', 'lg')}>
            Start Free Trial
          </Link>
          <Link to="/contact" className={buttonClasses('secondary', 'lg')}>
            Contact Sales
          </Link>
        </div>
      </section>
    </>
  );
}
