import { LANDING_META } from '@conductor/shared/constants/site-meta';

const escapeHtml = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#x27;');

/**
 * `/` is prerendered once with the home page's title and description; in SITE_MODE=waitlist
 * the server swaps in the coming-soon page's (the same strings the client's `meta` computes
 * there, so hydration agrees and crawlers see the right page).
 */
export function withWaitlistMeta(html: string): string {
  const { title, description } = LANDING_META.waitlist;
  return html
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`)
    .replace(/(<meta name="description" content=")[^"]*(")/, `$1${escapeHtml(description)}$2`)
    .replace(/(<meta property="og:title" content=")[^"]*(")/, `$1${escapeHtml(title)}$2`)
    .replace(/(<meta property="og:description" content=")[^"]*(")/, `$1${escapeHtml(description)}$2`);
}
