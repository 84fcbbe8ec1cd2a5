import { Link } from 'react-router';
import { PageFrame } from '~/components/layouts/page-frame';
import { buttonClasses } from '~/components/ui/button';
import { Prose } from '~/features/marketing/components/prose';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta(
    'About Conductor',
    'Conductor builds the reliable, cost-aware gateway between your application and every large language model provider.',
    '/about',
  );

const VALUES = [
  {
    title: 'Boring is a feature',
    body: 'A gateway sits on the hot path of somebody else’s product. We choose proven technology, measure every millisecond we add and ship changes behind tests.',
  },
  {
    title: 'Your data is yours',
    body: 'We meter requests, we do not read them. Prompt and completion bodies pass through in memory and are never stored.',
  },
  {
    title: 'No lock-in',
    body: 'Conductor speaks the OpenAI API you already use. Leaving is as easy as changing the base URL back.',
  },
  {
    title: 'Honest numbers',
    body: 'Our status page is generated from real health checks, our prices are on the website and every invoice line traces back to metered requests.',
  },
] as const;

export default function Page() {
  return (
    <PageFrame eyebrow="Company" title="About Conductor" lead="We build the layer between your product and every model provider.">
      <Prose>
        <h2>Why we started</h2>
        <p>
          Every team that ships an AI feature rediscovers the same problems. Providers have bad hours. Rate limits arrive at the worst
          moment. A model that was the best choice in spring is twice the price of an equivalent one by autumn. And the monthly bill is a
          single number that nobody can explain.
        </p>
        <p>
          We spent years building that plumbing inside other companies: retry loops, provider fallbacks, spreadsheets of token prices,
          dashboards stitched together from logs. Conductor is the version we wished we could have bought: one OpenAI-compatible API in
          front of OpenAI, Anthropic, Google, Azure OpenAI, Mistral and Cohere, with failover, load balancing, cost-optimised routing and
          usage analytics built in.
        </p>
        <h2>What we do</h2>
        <p>
          Conductor receives your request, decides which provider and model should serve it, and streams the answer back, usually adding
          only a few milliseconds. If a provider fails before the first byte, we retry or fail over to an equivalent model. Every request is
          metered, so you can see tokens, cost and latency by model, provider and API key, and set the plan limits that keep a runaway job
          from surprising you.
        </p>
        <h2>What we believe</h2>
      </Prose>
      <ul className="mt-6 grid gap-4 sm:grid-cols-2">
        {VALUES.map((value) => (
          <li key={value.title} className="rounded-xl border border-border bg-card p-6">
            <h3 className="font-semibold">{value.title}</h3>
            <p className="mt-2 text-sm leading-6 text-muted-foreground">{value.body}</p>
          </li>
        ))}
      </ul>
      <Prose className="mt-4">
        <h2>Where we are</h2>
        <p>
          Conductor, Inc. is a small, remote-first team of infrastructure engineers and designers across North America and Europe, with
          support hours of Mon-Fri 9AM-6PM EST. We are independent and funded by our customers.
        </p>
      </Prose>
      <div className="mt-10 flex flex-col gap-3 sm:flex-row">
        <Link to="/careers" className={buttonClasses('primary', 'md')}>
          See open roles
        </Link>
        <Link to="/contact" className={buttonClasses('secondary', 'md')}>
          Get in touch
        </Link>
      </div>
    </PageFrame>
  );
}
