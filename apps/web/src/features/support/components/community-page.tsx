import { ArrowRight, GitBranch, Layers, MessagesSquare, PiggyBank, Radio, Scale } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '~/components/ui/button';
import { Card } from '~/components/ui/card';

const RECIPES = [
  {
    icon: GitBranch,
    title: 'A fallback chain across providers',
    text: 'Keep answering when one provider has an outage: OpenAI first, Anthropic and Google behind it, with every attempt in x-conductor-route.',
    href: '/docs/best-practices#routing-policies',
  },
  {
    icon: Scale,
    title: 'Load-balance one model over two clouds',
    text: 'Spread gpt-4o traffic 3:1 between OpenAI and Azure OpenAI, each the other’s fallback.',
    href: '/docs/best-practices#routing-policies',
  },
  {
    icon: PiggyBank,
    title: 'The cheapest model for batch jobs',
    text: 'Let the cost strategy pick the least expensive model of the class you ask for, and watch the savings on the usage dashboard.',
    href: '/docs/best-practices#performance',
  },
  {
    icon: Radio,
    title: 'Streaming through your backend',
    text: 'Relay a streamed answer to the browser without exposing your key, and cancel upstream when the user leaves.',
    href: '/docs/chat#streaming-in-the-browser',
  },
  {
    icon: Layers,
    title: 'Bring your own provider keys',
    text: 'Use your own OpenAI or Anthropic contract through Conductor’s routing, with no token quota on our side.',
    href: '/docs/best-practices#bring-your-own-keys',
  },
  {
    icon: MessagesSquare,
    title: 'Per-tenant usage without webhooks',
    text: 'Record usage and routing headers per request to bill your own customers in real time.',
    href: '/docs/webhooks#tracking-usage-per-request',
  },
];

const GUIDELINES = [
  'Be kind and assume good intent; everyone here is building something.',
  'Never post API keys, provider keys or customer data. If a key leaks, revoke it in the dashboard at once.',
  'Share the request id (x-request-id), the model and the time when you report a problem: it lets anyone help you quickly.',
  'Security issues go privately to the support team, never in public.',
];

/** /support/community: routing recipes, how to ask and share, and the community guidelines. */
export function CommunityPage() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 lg:px-8">
      <div className="max-w-3xl">
        <p className="text-sm font-semibold text-primary">Support</p>
        <h1 className="mt-2 text-4xl font-semibold tracking-tight text-balance sm:text-5xl">Community</h1>
        <p className="mt-4 text-lg text-muted-foreground text-pretty">
          Ask questions, share routing recipes and learn from other teams building on Conductor.
        </p>
      </div>

      <section aria-labelledby="recipes-title" className="mt-14">
        <h2 id="recipes-title" className="text-2xl font-semibold tracking-tight">
          Popular recipes
        </h2>
        <p className="mt-2 text-muted-foreground">The patterns teams ask about most, each a working example in the docs.</p>
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {RECIPES.map(({ icon: Icon, title, text, href }) => (
            <li key={title}>
              <Link
                to={href}
                className="group block h-full rounded-xl border border-border bg-card p-5 shadow-sm transition-colors hover:border-primary/50"
              >
                <Icon className="size-5 text-primary" aria-hidden />
                <h3 className="mt-3 font-semibold group-hover:text-primary">{title}</h3>
                <p className="mt-1 text-sm text-muted-foreground">{text}</p>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <div className="mt-14 grid gap-6 lg:grid-cols-2">
        <Card className="p-6">
          <h2 className="text-xl font-semibold">Ask a question, share an idea</h2>
          <p className="mt-2 text-sm leading-6 text-muted-foreground">
            The public discussion board opens with general availability. Until then, community questions go straight to the people who build
            Conductor: open a ticket, choose <strong className="text-foreground">Feature request</strong> for ideas or{' '}
            <strong className="text-foreground">Technical</strong> for questions, and we answer within 24 hours. Answers that help everyone
            become recipes here and sections in the docs.
          </p>
          <div className="mt-5 flex flex-wrap gap-3">
            <Link to="/support#ticket" className={buttonClasses('primary')}>
              Ask the team <ArrowRight className="size-4" aria-hidden />
            </Link>
            <Link to="/docs" className={buttonClasses('secondary')}>
              Read the docs
            </Link>
          </div>
        </Card>
        <Card className="p-6">
          <h2 className="text-xl font-semibold">Community guidelines</h2>
          <ul className="mt-3 list-disc space-y-2 pl-5 text-sm leading-6 text-muted-foreground">
            {GUIDELINES.map((guideline) => (
              <li key={guideline}>{guideline}</li>
            ))}
          </ul>
        </Card>
      </div>

      <section aria-labelledby="updates-title" className="mt-14 rounded-xl border border-border bg-muted/40 p-6">
        <h2 id="updates-title" className="text-xl font-semibold">
          Stay up to date
        </h2>
        <p className="mt-2 text-sm text-muted-foreground">
          Follow incidents and uptime on the{' '}
          <Link to="/status" className="font-medium text-primary hover:underline">
            status page
          </Link>
          , read release notes and guides on the{' '}
          <Link to="/blog" className="font-medium text-primary hover:underline">
            blog
          </Link>
          , and subscribe with the “Stay updated” box at the bottom of every page.
        </p>
      </section>
    </div>
  );
}
