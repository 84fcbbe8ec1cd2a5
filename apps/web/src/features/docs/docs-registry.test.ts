import { describe, expect, it } from 'vitest';
import { DOCS_SECTIONS } from '~/config/docs';
import { loadDocsPage } from './docs-pages';
import { DOCS_DESCRIPTIONS, docsHref, neighbours, resolveSection } from './docs-registry';
import { loadSearchIndex, searchDocs } from './docs-search-index';

describe('docs registry', () => {
  it('has content for every entry of the side navigation, with the same title', async () => {
    const index = await loadSearchIndex();
    for (const item of DOCS_SECTIONS.flatMap((group) => group.items)) {
      const entry = index.find((candidate) => candidate.slug === item.slug);
      expect(entry?.title, item.slug).toBe(item.title);
      expect(DOCS_DESCRIPTIONS[item.slug], item.slug).toBe(entry?.description);
      expect(entry?.description.length, item.slug).toBeGreaterThan(20);
      expect(entry?.headings.length, item.slug).toBeGreaterThanOrEqual(2);
    }
  });

  it('names every column of every table (no empty header cell)', async () => {
    for (const item of DOCS_SECTIONS.flatMap((group) => group.items)) {
      const page = await loadDocsPage(item.slug);
      const html = page.blocks.map((block) => (block.kind === 'html' ? block.html : '')).join('');
      expect(html, item.slug).not.toMatch(/<th[^>]*>\s*<\/th>/);
    }
  });

  it('resolves aliases and sends unknown sections to the introduction', () => {
    expect(resolveSection(undefined)).toBe('introduction');
    expect(resolveSection('streaming')).toBe('chat');
    expect(resolveSection('api-reference')).toBe('api');
    expect(resolveSection('models')).toBe('models');
    expect(resolveSection('nope')).toBe('introduction');
    expect(docsHref('introduction')).toBe('/docs');
    expect(docsHref('chat', 'streaming')).toBe('/docs/chat#streaming');
  });

  it('links each section to its neighbours in navigation order', () => {
    expect(neighbours('introduction')).toMatchObject({ previous: undefined, next: { slug: 'quick-start' } });
    expect(neighbours('completions')).toMatchObject({ previous: { slug: 'authentication' }, next: { slug: 'chat' } });
    expect(neighbours('webhooks').next).toBeUndefined();
  });

  it('searches titles first, then headings', async () => {
    const index = await loadSearchIndex();
    const [first] = searchDocs(index, 'rate limiting');
    expect(first).toMatchObject({ slug: 'rate-limiting', href: '/docs/rate-limiting' });
    expect(searchDocs(index, 'retrying')[0]).toMatchObject({ slug: 'error-handling', heading: { id: 'retrying-well' } });
    expect(searchDocs(index, 'openapi').some((result) => result.href === '/docs/api')).toBe(true);
    expect(searchDocs(index, 'zzzz')).toEqual([]);
  });
});
