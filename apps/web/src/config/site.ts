/** Site-wide constants for the web app (the canonical origin used in sitemap and Open Graph tags). */
export const SITE_URL = 'https://conductor.dev';
export const SITE_NAME = 'Conductor';
