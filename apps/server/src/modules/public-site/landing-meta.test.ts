import { LANDING_META } from '@conductor/shared/constants/site-meta';
import { describe, expect, it } from 'vitest';
import { withWaitlistMeta } from './landing-meta.ts';

describe('waitlist meta for /', () => {
  it('replaces the prerendered home title, description and Open Graph tags', () => {
    const html = [
      `<title>${LANDING_META.home.title}</title>`,
      `<meta name="description" content="${LANDING_META.home.description}"/>`,
      `<meta property="og:title" content="${LANDING_META.home.title}"/>`,
      `<meta property="og:description" content="${LANDING_META.home.description}"/>`,
      '<meta property="og:url" content="https://conductor.dev/"/>',
    ].join('');
    const result = withWaitlistMeta(html);
    expect(result).toContain(`<title>${LANDING_META.waitlist.title}</title>`);
    expect(result).toContain(`<meta name="description" content="${LANDING_META.waitlist.description}"/>`);
    expect(result).toContain(`<meta property="og:title" content="${LANDING_META.waitlist.title}"/>`);
    expect(result).toContain(`<meta property="og:description" content="${LANDING_META.waitlist.description}"/>`);
    expect(result).not.toContain(LANDING_META.home.description);
    expect(result).toContain('og:url" content="https://conductor.dev/"');
  });
});
