import { SITE_NAME, SITE_URL } from '~/config/site';

/** Title, description and Open Graph tags for a page's `meta` export. */
export function pageMeta(title: string, description: string, path: string) {
  const fullTitle = title === SITE_NAME ? title : `${title} · ${SITE_NAME}`;
  return [
    { title: fullTitle },
    { name: 'description', content: description },
    { property: 'og:title', content: fullTitle },
    { property: 'og:description', content: description },
    { property: 'og:type', content: 'website' },
    { property: 'og:url', content: `${SITE_URL}${path}` },
    { property: 'og:site_name', content: SITE_NAME },
    { name: 'twitter:card', content: 'summary' },
    { tagName: 'link', rel: 'canonical', href: `${SITE_URL}${path}` },
  ];
}
