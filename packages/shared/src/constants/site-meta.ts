/**
 * Document title and description of `/` in each SITE_MODE. The web app's `meta` and the
 * server (which rewrites the prerendered `/` in waitlist mode) read the same strings, so
 * the served HTML and the hydrated page agree.
 */
export const LANDING_META = {
  home: {
    title: 'Conductor · The OpenAI-compatible LLM gateway',
    description:
      'Conductor is an OpenAI-compatible LLM gateway: failover, load balancing and cost-optimised routing across OpenAI, Anthropic, Google, Azure, Mistral and Cohere.',
  },
  waitlist: {
    title: 'Conductor · Launching soon, join the waitlist',
    description:
      'Conductor, the OpenAI-compatible LLM gateway that cuts AI costs by up to 70%, is launching soon. Join the waitlist for early access.',
  },
} as const;
