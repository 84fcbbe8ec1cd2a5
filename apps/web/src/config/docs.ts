/** The docs' side navigation (sections in order, by group) and the extra URLs the spec links to. */
export interface DocsNavItem {
  slug: string;
  title: string;
}

export const DOCS_SECTIONS: readonly { group: string; items: readonly DocsNavItem[] }[] = [
  {
    group: 'Getting Started',
    items: [
      { slug: 'introduction', title: 'Introduction' },
      { slug: 'quick-start', title: 'Quick Start' },
      { slug: 'authentication', title: 'Authentication' },
    ],
  },
  {
    group: 'API Reference',
    items: [
      { slug: 'completions', title: 'Completions' },
      { slug: 'chat', title: 'Chat' },
      { slug: 'models', title: 'Models' },
      { slug: 'usage', title: 'Usage' },
    ],
  },
  {
    group: 'SDKs & Libraries',
    items: [
      { slug: 'javascript', title: 'JavaScript/Node.js' },
      { slug: 'python', title: 'Python' },
      { slug: 'curl', title: 'cURL' },
      { slug: 'go', title: 'Go' },
    ],
  },
  {
    group: 'Guides',
    items: [
      { slug: 'best-practices', title: 'Best Practices' },
      { slug: 'error-handling', title: 'Error Handling' },
      { slug: 'rate-limiting', title: 'Rate Limiting' },
      { slug: 'webhooks', title: 'Webhooks' },
    ],
  },
];

/** Extra docs URLs the spec links to; each resolves to a real section. */
export const DOCS_ALIASES: Record<string, string> = {
  streaming: 'chat',
  'api-reference': 'api',
  api: 'api',
};
