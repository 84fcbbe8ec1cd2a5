import { Link } from 'react-router';
import { LogoMark } from '~/components/ui/logo';

const COLUMNS = [
  {
    title: 'Product',
    links: [
      { to: '/home#features', label: 'Features' },
      { to: '/pricing', label: 'Pricing' },
      { to: '/docs', label: 'Documentation' },
      { to: '/docs/api', label: 'API Reference' },
      { to: '/status', label: 'Status' },
    ],
  },
  {
    title: 'Support',
    links: [
      { to: '/support', label: 'Help Center' },
      { to: '/support/community', label: 'Community' },
      { to: '/support/contact', label: 'Contact Support' },
      { to: '/docs/quick-start', label: 'Quick Start' },
    ],
  },
  {
    title: 'Company',
    links: [
      { to: '/about', label: 'About' },
      { to: '/blog', label: 'Blog' },
      { to: '/careers', label: 'Careers' },
      { to: '/press', label: 'Press' },
      { to: '/contact', label: 'Contact' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { to: '/privacy', label: 'Privacy Policy' },
      { to: '/terms', label: 'Terms of Service' },
      { to: '/cookies', label: 'Cookie Policy' },
      { to: '/gdpr', label: 'GDPR' },
    ],
  },
] as const;

const SOCIAL = [
  {
    href: 'https://github.com/conductor-gateway',
    label: 'GitHub',
    path: 'M12 2a10 10 0 0 0-3.16 19.49c.5.09.68-.22.68-.48v-1.7c-2.78.6-3.37-1.34-3.37-1.34-.45-1.16-1.11-1.47-1.11-1.47-.91-.62.07-.6.07-.6 1 .07 1.53 1.03 1.53 1.03.9 1.52 2.34 1.08 2.91.83.09-.65.35-1.09.63-1.34-2.22-.25-4.55-1.11-4.55-4.94 0-1.09.39-1.98 1.03-2.68-.1-.25-.45-1.27.1-2.64 0 0 .84-.27 2.75 1.02a9.56 9.56 0 0 1 5 0c1.91-1.29 2.75-1.02 2.75-1.02.55 1.37.2 2.39.1 2.64.64.7 1.03 1.59 1.03 2.68 0 3.84-2.34 4.68-4.57 4.93.36.31.68.92.68 1.85v2.74c0 .27.18.58.69.48A10 10 0 0 0 12 2Z',
  },
  {
    href: 'https://x.com/conductor_dev',
    label: 'X (Twitter)',
    path: 'M17.75 3h3.07l-6.7 7.66L22 21h-6.17l-4.83-6.32L5.47 21H2.4l7.17-8.2L2 3h6.33l4.37 5.77L17.75 3Zm-1.08 16.2h1.7L7.4 4.73H5.58L16.67 19.2Z',
  },
  {
    href: 'https://www.linkedin.com/company/conductor-gateway',
    label: 'LinkedIn',
    path: 'M20.45 20.45h-3.56v-5.57c0-1.33-.02-3.04-1.85-3.04-1.85 0-2.14 1.45-2.14 2.94v5.67H9.35V9h3.41v1.56h.05c.48-.9 1.64-1.85 3.37-1.85 3.6 0 4.27 2.37 4.27 5.46v6.28ZM5.34 7.43a2.06 2.06 0 1 1 0-4.13 2.06 2.06 0 0 1 0 4.13ZM7.12 20.45H3.56V9h3.56v11.45ZM22.22 0H1.77C.79 0 0 .77 0 1.72v20.56C0 23.23.79 24 1.77 24h20.45c.98 0 1.78-.77 1.78-1.72V1.72C24 .77 23.2 0 22.22 0Z',
  },
  {
    href: 'https://discord.gg/conductor',
    label: 'Discord',
    path: 'M20.32 4.37A19.8 19.8 0 0 0 15.4 2.8a13.7 13.7 0 0 0-.63 1.3 18.3 18.3 0 0 0-5.5 0 12.6 12.6 0 0 0-.64-1.3 19.7 19.7 0 0 0-4.93 1.53C.57 9.05-.28 13.6.14 18.1a19.9 19.9 0 0 0 6.04 3.05c.49-.66.92-1.36 1.3-2.1a12.9 12.9 0 0 1-2.04-.98l.5-.39a14.2 14.2 0 0 0 12.12 0l.5.39c-.65.39-1.34.71-2.05.98.38.74.81 1.44 1.3 2.1a19.8 19.8 0 0 0 6.04-3.05c.5-5.22-.84-9.73-3.53-13.73ZM8.02 15.33c-1.18 0-2.16-1.08-2.16-2.42 0-1.33.95-2.42 2.16-2.42 1.2 0 2.18 1.1 2.16 2.42 0 1.34-.96 2.42-2.16 2.42Zm7.96 0c-1.18 0-2.15-1.08-2.15-2.42 0-1.33.95-2.42 2.15-2.42 1.21 0 2.18 1.1 2.16 2.42 0 1.34-.95 2.42-2.16 2.42Z',
  },
] as const;

/** The footer's brand, social links and link columns: static, kept from the prerendered HTML when a page hydrates. */
export default function SiteFooterLinks() {
  return (
    <div className="grid grid-cols-2 gap-10 sm:grid-cols-4 lg:grid-cols-[1.4fr_repeat(4,1fr)]">
      <div className="col-span-2 space-y-4 sm:col-span-4 lg:col-span-1">
        <div className="flex items-center gap-2 font-semibold">
          <LogoMark />
          <span className="text-lg">Conductor</span>
        </div>
        <p className="max-w-xs text-sm text-muted-foreground">
          One OpenAI-compatible API for every model provider, with failover, load balancing and cost control.
        </p>
        <ul className="flex gap-3" aria-label="Social links">
          {SOCIAL.map((item) => (
            <li key={item.label}>
              <a
                href={item.href}
                className="inline-flex size-9 items-center justify-center rounded-md text-muted-foreground hover:bg-muted hover:text-foreground"
                rel="noopener noreferrer"
                target="_blank"
              >
                <svg viewBox="0 0 24 24" className="size-5" fill="currentColor" aria-hidden="true">
                  <path d={item.path} />
                </svg>
                <span className="sr-only">{item.label}</span>
              </a>
            </li>
          ))}
        </ul>
      </div>
      {COLUMNS.map((column) => (
        <nav key={column.title} aria-label={column.title}>
          <h2 className="text-sm font-semibold">{column.title}</h2>
          <ul className="mt-3 space-y-2">
            {column.links.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="text-sm text-muted-foreground hover:text-foreground">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ))}
    </div>
  );
}
