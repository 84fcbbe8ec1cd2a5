export interface BlogPost {
  slug: string;
  title: string;
  date: string;
  author: string;
  role: string;
  summary: string;
  paragraphs: readonly string[];
}

export const BLOG_POSTS: readonly BlogPost[] = [
  {
    slug: 'failover-before-the-first-byte',
    title: 'Failover before the first byte',
    date: '2026-02-12',
    author: 'Priya Natarajan',
    role: 'Gateway team',
    summary: 'Why Conductor retries and fails over only until the first token reaches your user, and what happens after that.',
    paragraphs: [
      'A gateway that promises failover has to answer an awkward question: what if the provider fails halfway through a streamed answer? Your user has already read the first sentence. Quietly switching to another model would splice two different answers together, and silently truncating the stream would make a broken answer look complete.',
      'So Conductor draws a hard line at the first byte. Until we have sent anything to your client, every failure is recoverable: a 429 or 5xx from the provider is retried with exponential backoff that honours Retry-After, and if the provider keeps failing we route the request to an equivalent model from another provider in the same quality class. Each upstream has its own circuit breaker, so after a few consecutive failures we stop sending traffic there for a while instead of paying a timeout on every request.',
      'Once the first chunk has left the gateway, we stop making decisions for you. If the upstream breaks mid-stream, the stream ends with an explicit error event in the OpenAI format, never a silent end. Your client can show a retry button, and the usage record says exactly what happened.',
      'Every response also carries its routing decision in headers: the provider and model that served it, whether it was the primary route or a failover, and the overhead the gateway added. When something looks odd, you do not have to guess.',
    ],
  },
  {
    slug: 'what-a-token-really-costs',
    title: 'What a token really costs',
    date: '2026-01-20',
    author: 'Tomás Ferreira',
    role: 'Billing and analytics',
    summary:
      'How we meter every request, why input and output tokens are priced differently, and how cost-optimised routing saves up to 40%.',
    paragraphs: [
      'A token is roughly four characters of English text, and both the prompt you send and the completion you receive are counted. But the two are not priced the same: output tokens typically cost three to five times more than input tokens, and the spread between models of similar quality is often larger than the spread between quality tiers.',
      'Conductor meters every request as it completes: the model and provider, prompt and completion tokens, the cost at that model’s current price, latency and status. The records roll up into daily totals per model, which is what powers the usage charts, the estimated bill and the per-key breakdown in the dashboard.',
      'With that data in hand, routing can be cost-aware. Models are grouped into classes that are interchangeable for most workloads, and the cost-optimised strategy sends each request to the cheapest healthy provider in its class. Teams that turned it on saw their model spend fall by up to 40% at the same quality, mostly from workloads that never needed the most expensive model in the first place.',
      'Limits follow the same numbers. Plans have a monthly token quota and a per-minute request rate; test keys run against a built-in sandbox and never touch your quota, so CI and local development are free.',
    ],
  },
  {
    slug: 'why-we-never-store-your-prompts',
    title: 'Why we never store your prompts',
    date: '2025-12-04',
    author: 'Hannah Okoye',
    role: 'Security',
    summary:
      'Metering without reading: what Conductor keeps about each request, what it deliberately does not, and how keys are protected.',
    paragraphs: [
      'The easiest way to build analytics for an LLM gateway is to log everything. We decided early not to. Prompts contain customer data, source code and the occasional password pasted by mistake, and a gateway that stores them becomes the most attractive target in your stack.',
      'Conductor keeps metadata only: which key made the request, when, which provider and model served it, how many tokens went in and out, what it cost, how long it took and whether it succeeded. The request and response bodies pass through memory on their way to and from the provider and are never written to disk.',
      'Keys get the same care. Conductor API keys are shown once and stored only as hashes, so a database leak would not reveal a usable key. Provider keys you bring yourself are encrypted with AES-256-GCM under a server-held key, shown masked in the dashboard and decrypted only at the moment a request is sent upstream. Passwords are hashed with argon2id, and sessions are opaque random tokens stored hashed on our side and delivered in an HttpOnly cookie that page scripts cannot read.',
      'None of this makes the providers themselves disappear from the picture: your prompt still reaches the provider you route to, under that provider’s terms. Our privacy policy lists exactly what we store and why.',
    ],
  },
];
