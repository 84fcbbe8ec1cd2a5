/** Site-wide constants for the web app (the canonical origin used in sitemap and Open Graph tags). */
export const SITE_URL = 'https://conductor.dev';
export const SITE_NAME = 'Conductor';

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

export const COMPANY_PAGES = ['/about', '/blog', '/careers', '/press', '/contact'] as const;
export const LEGAL_PAGES = ['/privacy', '/terms', '/cookies', '/gdpr'] as const;

export const PRERENDERED_PATHS: string[] = [
  '/',
  '/home',
  '/pricing',
  '/status',
  ...COMPANY_PAGES,
  ...LEGAL_PAGES,
  '/docs',
  ...DOCS_SECTIONS.flatMap((group) => group.items.map((item) => `/docs/${item.slug}`)),
  ...Object.keys(DOCS_ALIASES).map((alias) => `/docs/${alias}`),
  '/support',
  '/support/community',
  '/support/contact',
  '/login',
  '/register',
  '/forgot-password',
];
