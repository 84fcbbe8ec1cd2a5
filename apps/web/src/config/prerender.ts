import { DOCS_ALIASES, DOCS_SECTIONS } from './docs.ts';

export const COMPANY_PAGES = ['/about', '/blog', '/careers', '/press', '/contact'] as const;
export const LEGAL_PAGES = ['/privacy', '/terms', '/cookies', '/gdpr'] as const;

/** Every path the build prerenders (read by react-router.config.ts only). */
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
