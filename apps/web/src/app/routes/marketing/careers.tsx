import { Link } from 'react-router';
import { PageFrame } from '~/components/layouts/page-frame';
import { Prose } from '~/features/marketing/components/prose';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta('Careers', 'Join Conductor and build the infrastructure that routes AI traffic for developers everywhere.', '/careers');

const ROLES = [
  {
    title: 'Senior Backend Engineer, Gateway',
    team: 'Gateway',
    location: 'Remote (UTC-5 to UTC+2)',
    summary:
      'Own the request path: streaming proxies, provider adapters, retries and circuit breakers. You care about p99 latency and have debugged a connection pool at 3 a.m.',
  },
  {
    title: 'Full-Stack Engineer, Developer Portal',
    team: 'Portal',
    location: 'Remote (Americas)',
    summary:
      'Build the dashboard developers live in: usage analytics, API keys, billing and onboarding, in TypeScript with React and Fastify.',
  },
  {
    title: 'Developer Advocate',
    team: 'Developer Experience',
    location: 'Remote (Europe)',
    summary: 'Write the guides, sample apps and talks that get a new team from sign-up to first routed request in five minutes.',
  },
] as const;

const BENEFITS = [
  'Competitive salary and meaningful equity',
  'Remote-first, with a yearly team week in person',
  'Health, dental and vision cover (or a local equivalent)',
  '25 days of paid holiday plus public holidays',
  'A $2,000 yearly learning budget and the hardware you choose',
  '16 weeks of paid parental leave',
] as const;

export default function Page() {
  return (
    <PageFrame eyebrow="Company" title="Careers" lead="Help us build the infrastructure AI products run on.">
      <Prose>
        <p>
          Conductor sits on the hot path of other companies’ products, so we hire people who like hard, precise problems and explain their
          work clearly. We are a small team: you will own real systems from your first month, review each other’s code and talk to customers
          directly.
        </p>
        <h2>Open roles</h2>
      </Prose>
      <ul className="mt-6 space-y-4">
        {ROLES.map((role) => (
          <li key={role.title} className="rounded-xl border border-border bg-card p-6">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h3 className="text-lg font-semibold">{role.title}</h3>
              <p className="text-sm text-muted-foreground">
                {role.team} · {role.location}
              </p>
            </div>
            <p className="mt-2 text-sm leading-6 text-muted-foreground">{role.summary}</p>
            <a
              href={`mailto:careers@conductor.dev?subject=${encodeURIComponent(role.title)}`}
              className="mt-3 inline-block text-sm font-medium text-primary underline underline-offset-4"
            >
              Apply for {role.title}
            </a>
          </li>
        ))}
      </ul>
      <Prose className="mt-4">
        <h2>Benefits</h2>
        <ul>
          {BENEFITS.map((benefit) => (
            <li key={benefit}>{benefit}</li>
          ))}
        </ul>
        <h2>How we hire</h2>
        <ol>
          <li>A 30-minute conversation with the hiring manager about your work and ours.</li>
          <li>A practical exercise that takes no more than three hours, or a walk through code you have already written.</li>
          <li>A conversation with two future teammates, then a decision within a week.</li>
        </ol>
        <p>
          We welcome applicants of every background and do not require a degree. If you need an adjustment during the process, tell us and
          we will make it. Do not see your role? Write to <a href="mailto:careers@conductor.dev">careers@conductor.dev</a> or{' '}
          <Link to="/contact">contact us</Link>.
        </p>
      </Prose>
    </PageFrame>
  );
}
