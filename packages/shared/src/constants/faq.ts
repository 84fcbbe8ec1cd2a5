import { OVERAGE_USD_PER_1K_TOKENS, SUPPORT } from './limits.ts';
import { MODELS } from './models.ts';
import { PROVIDER_IDS } from './providers.ts';
import type { FaqItem } from './faq-categories.ts';

export { FAQ_CATEGORIES, type FaqCategory, type FaqItem, matchesFaq } from './faq-categories.ts';

/** The support centre's FAQ (spec section 3, "FAQ item"), in the spec's three categories. */
export const FAQ_ITEMS: readonly FaqItem[] = [
  {
    category: 'Getting Started',
    question: 'What is Conductor?',
    answer:
      'Conductor is an LLM gateway: one OpenAI-compatible API in front of OpenAI, Anthropic, Google, Azure OpenAI, Mistral and Cohere, with automatic failover, load balancing, cost-optimised routing and usage analytics.',
    link: { label: 'Read the introduction', href: '/docs' },
  },
  {
    category: 'Getting Started',
    question: 'How do I get an API key?',
    answer:
      'Create a free account, then open Dashboard → API Keys and create a key. The full key is shown once, so copy it into your secret store right away. Test keys (cc_test_sk_) use the built-in sandbox; live keys (cc_live_sk_) call the real providers.',
    link: { label: 'Quick Start', href: '/docs/quick-start' },
  },
  {
    category: 'Getting Started',
    question: 'Can I keep using my OpenAI code?',
    answer:
      'Yes. Conductor speaks the OpenAI API, so the official OpenAI libraries for JavaScript, Python and Go work as they are: change the base URL to https://conductor.dev/v1 and use your Conductor key.',
    link: { label: 'SDK guides', href: '/docs/javascript' },
  },
  {
    category: 'Getting Started',
    question: 'What is the difference between live and test keys?',
    answer:
      'Live keys (cc_live_sk_) call the real providers and count against your monthly tokens. Test keys (cc_test_sk_) are answered by a deterministic sandbox: no provider is called and test keys do not consume quota, so they are ideal for development and CI.',
    link: { label: 'Authentication', href: '/docs/authentication' },
  },
  {
    category: 'Getting Started',
    question: 'Which providers and models are supported?',
    answer: `${MODELS.length} models across ${PROVIDER_IDS.length} providers: OpenAI (GPT-4o, GPT-4, GPT-3.5), Anthropic (Claude 3), Google (Gemini), Azure OpenAI, Mistral and Cohere. GET /v1/models lists every model with its context length and price.`,
    link: { label: 'Models', href: '/docs/models' },
  },
  {
    category: 'Billing & Plans',
    question: 'How are tokens counted?',
    answer:
      'A token is a piece of a word: about 4 characters of English text equal 1 token. Input and output tokens both count, so the prompt you send (including earlier messages of a conversation) and the answer you receive are both metered.',
    link: { label: 'Usage', href: '/docs/usage' },
  },
  {
    category: 'Billing & Plans',
    question: 'Can I change my plan at any time?',
    answer:
      'Yes. Upgrades and downgrades take effect at once, with proration: you pay only for the part of the period on each plan. Change plans in Dashboard → Billing.',
  },
  {
    category: 'Billing & Plans',
    question: 'What happens if I go over my plan’s limits?',
    answer: `Free plans are throttled when they are over the limit until the next cycle. On Pro and Enterprise, overage is billed at $${OVERAGE_USD_PER_1K_TOKENS.toFixed(2)} per 1K tokens. Requests per minute are limited on every plan; a request over the limit gets HTTP 429 with a Retry-After header.`,
    link: { label: 'Rate limiting', href: '/docs/rate-limiting' },
  },
  {
    category: 'Billing & Plans',
    question: 'Is there a free trial?',
    answer:
      'Every paid plan starts with a 14-day free trial, and no credit card is required to sign up. The Free plan is free forever and includes 10,000 tokens a month.',
    link: { label: 'Compare plans', href: '/pricing' },
  },
  {
    category: 'Billing & Plans',
    question: 'Do test keys or my own provider keys cost anything?',
    answer:
      'Test-key traffic is free and uses no quota. With the Bring Your Own Keys plan your providers bill you directly and Conductor adds no token quota; usage is still metered so you can see it on your dashboard.',
  },
  {
    category: 'Technical',
    question: 'What happens when a provider is down?',
    answer:
      'With a fallback routing policy Conductor retries transient errors with backoff and moves the request to the next provider or model in your chain, before the first byte reaches you. The x-conductor-route response header shows every attempt.',
    link: { label: 'Routing policies', href: '/docs/best-practices#routing-policies' },
  },
  {
    category: 'Technical',
    question: 'What are the rate limits?',
    answer:
      'Free: 10 requests/min and 10,000 tokens/month. Pro: 100 requests/min and 1M tokens/month. Enterprise: 1,000 requests/min and unlimited tokens. Requests over the limit get HTTP 429 with a Retry-After header.',
    link: { label: 'Rate limiting', href: '/docs/rate-limiting' },
  },
  {
    category: 'Technical',
    question: 'Do you support streaming?',
    answer:
      'Yes. Set "stream": true and the answer arrives token by token as Server-Sent Events in the OpenAI chunk format, for every provider. A stream that breaks mid-way ends with an explicit error event, never a silent truncation.',
    link: { label: 'Streaming', href: '/docs/streaming' },
  },
  {
    category: 'Technical',
    question: 'How are my keys stored?',
    answer:
      'Conductor API keys are stored only as a SHA-256 hash, and the full key is shown once. Provider keys you bring are stored with AES-256 encryption and decrypted only in memory to call that provider.',
    link: { label: 'Authentication', href: '/docs/authentication' },
  },
  {
    category: 'Technical',
    question: 'Which errors can the API return?',
    answer:
      'Standard HTTP status codes with the OpenAI error envelope {"error": {"message", "type", "param", "code"}}: 400 invalid requests, 401 key problems, 404 unknown models, 429 rate limits and quota, 502/503/504 provider failures.',
    link: { label: 'Error handling', href: '/docs/error-handling' },
  },
  {
    category: 'Technical',
    question: 'Do you offer webhooks?',
    answer:
      'Not yet. Every response carries its token usage and routing headers, the dashboard exports usage as CSV, and GET /v1/status reports incidents for your monitoring to poll.',
    link: { label: 'Webhooks', href: '/docs/webhooks' },
  },
  {
    category: 'Technical',
    question: 'How do I reach a person?',
    answer: `Open a ticket below or e-mail ${SUPPORT.email}. Our team works ${SUPPORT.hours} and replies to e-mail ${SUPPORT.responseTime}.`,
  },
];
