import { BarChart3, Coins, Plug, Route, ShieldCheck, Zap } from 'lucide-react';

export const HOME_STATS = [
  { value: '10M+', label: 'API calls' },
  { value: '40%', label: 'cost savings' },
  { value: '99.9%', label: 'uptime' },
  { value: '20+', label: 'models across 6 providers' },
] as const;

export const HOME_FEATURES = [
  {
    icon: Route,
    title: 'Intelligent routing',
    body: 'Weighted load balancing, retries that honour Retry-After and failover to an equivalent model when a provider struggles, all before the first byte reaches your users.',
  },
  {
    icon: ShieldCheck,
    title: 'Enterprise security',
    body: 'API keys stored only as hashes, provider keys encrypted with AES-256-GCM, single sign-on, and no prompt or completion bodies kept on our side.',
  },
  {
    icon: BarChart3,
    title: 'Real-time analytics',
    body: 'Every request metered as it happens: tokens, cost, latency and status by model, provider and key, with charts your finance team will read.',
  },
  {
    icon: Zap,
    title: 'High performance',
    body: 'A lean streaming proxy that adds single-digit milliseconds, keeps connections warm and trips a circuit breaker per upstream instead of waiting on timeouts.',
  },
  {
    icon: Coins,
    title: 'Cost optimisation',
    body: 'Send each request to the cheapest healthy provider in the same quality class and watch the savings add up: up to 40% lower spend at the same quality.',
  },
  {
    icon: Plug,
    title: 'Easy integration',
    body: 'Keep the OpenAI SDK you already use and change one line, the base URL. Test keys answer from a built-in sandbox, so you can build before you pay.',
  },
] as const;

export interface Testimonial {
  name: string;
  role: string;
  company: string;
  content: string;
  avatar: string;
}

export const TESTIMONIALS: readonly Testimonial[] = [
  {
    name: 'Sarah Chen',
    role: 'Staff Engineer',
    company: 'Lumen Health',
    content:
      'We moved three products onto Conductor in an afternoon by changing the base URL. When our primary provider had a bad hour last month, our users never noticed.',
    avatar: '/avatars/sarah-chen.svg',
  },
  {
    name: 'Marcus Johnson',
    role: 'CTO',
    company: 'Fieldnote',
    content:
      'Cost-optimised routing cut our model bill by a third in the first month, and the usage view finally shows finance where every dollar goes.',
    avatar: '/avatars/marcus-johnson.svg',
  },
  {
    name: 'Elena Rodriguez',
    role: 'Head of Platform',
    company: 'Brightline Commerce',
    content:
      'Hashed keys, encrypted provider credentials and no prompt storage made our security review short. Single sign-on for the whole team sealed it.',
    avatar: '/avatars/elena-rodriguez.svg',
  },
];

export interface DemoStep {
  image: string;
  title: string;
  caption: string;
}

/** The 'Watch Demo' walkthrough: screens of the product, shipped with the site. */
export const DEMO_STEPS: readonly DemoStep[] = [
  {
    image: '/demo/01-create-key.svg',
    title: 'Create an API key',
    caption: 'Sign up, open API Keys and create a live or test key. The full key is shown once; we keep only its hash.',
  },
  {
    image: '/demo/02-first-request.svg',
    title: 'Make your first request',
    caption:
      'Point the OpenAI SDK you already use at Conductor by changing the base URL. Every response tells you which provider served it.',
  },
  {
    image: '/demo/03-failover.svg',
    title: 'Fail over automatically',
    caption:
      'When a provider errors or slows down, the request is retried and routed to an equivalent model before your user sees a thing.',
  },
  {
    image: '/demo/04-usage.svg',
    title: 'Watch usage in real time',
    caption: 'Tokens, cost and latency for every call, by model and key, on a dashboard that updates as traffic flows.',
  },
  {
    image: '/demo/05-savings.svg',
    title: 'Spend less',
    caption: 'Cost-optimised routing picks the cheapest healthy provider in the same quality class: up to 40% lower spend.',
  },
];
