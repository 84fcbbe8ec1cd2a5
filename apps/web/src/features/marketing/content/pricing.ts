import { CHARS_PER_TOKEN, OVERAGE_USD_PER_1K_TOKENS } from '@conductor/shared';

export const ENTERPRISE_FEATURES = [
  {
    title: 'Single sign-on',
    body: 'Google, Microsoft and GitHub sign-in for the whole team, with accounts keyed by identity, never by e-mail alone.',
  },
  {
    title: '99.9% uptime SLA',
    body: 'A written service level with service credits, backed by the live status page and per-provider failover.',
  },
  { title: 'Dedicated support', body: 'A named engineer, a shared channel and answers within hours, not days.' },
  {
    title: '1,000 requests/min',
    body: 'Ten times the Pro rate, 50 concurrent sessions and unlimited tokens, with custom limits on request.',
  },
  { title: 'Audit logs', body: 'Who created, rotated or revoked which key and when, ready for your compliance reviews.' },
  { title: 'Invoice billing', body: 'Annual contracts, purchase orders and invoices in USD, with a data processing agreement.' },
] as const;

export const PRICING_FAQ = [
  {
    question: 'How are tokens counted?',
    answer: `About ${CHARS_PER_TOKEN} characters of English text make one token. Both the input you send and the output the model returns count towards your monthly tokens, exactly as the providers count them.`,
  },
  {
    question: 'Can I change plans at any time?',
    answer: 'Yes. Upgrades and downgrades take effect at once, and the difference is prorated to the day on your next invoice.',
  },
  {
    question: 'What happens when I go over my plan’s tokens?',
    answer: `On the Free plan requests are throttled until your next billing cycle; nothing is charged. On Pro and Enterprise traffic keeps flowing and overage is billed at $${OVERAGE_USD_PER_1K_TOKENS.toFixed(2)} per 1K tokens.`,
  },
  {
    question: 'Is there a free trial?',
    answer: 'Every paid plan starts with a 14-day free trial, and the Free plan is free forever. No credit card is required to start.',
  },
  {
    question: 'Can I bring my own provider keys?',
    answer:
      'Yes. Add your OpenAI, Anthropic, Google, Azure OpenAI, Mistral or Cohere keys during onboarding; they are encrypted with AES-256-GCM. Traffic on your own keys is metered and shown but has no token quota, because the provider bills you directly.',
  },
  {
    question: 'Do test keys cost anything?',
    answer:
      'No. Test keys (cc_test_sk_…) are answered by a built-in sandbox and never consume your quota, so you can build and run CI for free.',
  },
] as const;
