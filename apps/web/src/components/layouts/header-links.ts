/** The main navigation of the public site (header, and the narrow-screen menu). */
export const HEADER_LINKS = [
  { to: '/home', label: 'Home' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/docs', label: 'Documentation' },
  { to: '/support', label: 'Support' },
] as const;
