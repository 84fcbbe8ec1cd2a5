// @vitest-environment node
import { PLANS } from '@conductor/shared';
import { describe, expect, it } from 'vitest';
import { compileDocsPage, parseFenceInfo, slugify } from './markdown';

/** The page's prose blocks as one HTML string. */
const htmlOf = (page: Awaited<ReturnType<typeof compileDocsPage>>) =>
  page.blocks.flatMap((block) => (block.kind === 'html' ? [block.html] : [])).join('');

const PAGE = `---
title: Example
description: An example page.
---

Intro with a [link](/docs/chat) and \`code\`.

## First part

\`\`\`js
console.log('one');
\`\`\`

\`\`\`python
print("one")
\`\`\`

\`\`\`bash
curl https://conductor.dev/v1/models
\`\`\`

Between the groups.

\`\`\`json title="Response"
{ "ok": true }
\`\`\`

### Detail

## First part

{{plans-table}}
`;

describe('compileDocsPage', () => {
  it('keeps front matter, collects h2/h3 headings with unique ids and groups adjacent fences into tabs', async () => {
    const page = await compileDocsPage('example', PAGE);
    expect(page).toMatchObject({ slug: 'example', title: 'Example', description: 'An example page.' });
    expect(page.headings).toEqual([
      { id: 'first-part', text: 'First part', depth: 2 },
      { id: 'detail', text: 'Detail', depth: 3 },
      { id: 'first-part-2', text: 'First part', depth: 2 },
    ]);
    const groups = page.blocks.filter((block) => block.kind === 'code');
    expect(groups.map((group) => group.tabs.map((tab) => tab.label))).toEqual([['JavaScript', 'Python', 'cURL'], ['Response']]);
  });

  it('highlights code at build time with light and dark colours', async () => {
    const page = await compileDocsPage('example', PAGE);
    const code = page.blocks.find((block) => block.kind === 'code');
    const tab = code?.kind === 'code' ? code.tabs[0] : undefined;
    expect(tab?.code).toBe("console.log('one');");
    expect(tab?.html).toContain('<pre class="shiki');
    expect(tab?.html).toMatch(/--shiki-light:#[0-9a-f]{6};--shiki-dark:#[0-9a-f]{6}/i);
  });

  it('renders prose as HTML with anchored headings and the plans table from the shared constants', async () => {
    const html = htmlOf(await compileDocsPage('example', PAGE));
    expect(html).toContain('<a href="/docs/chat">link</a>');
    expect(html).toContain('<h2 id="first-part"><a class="docs-anchor" href="#first-part">First part</a></h2>');
    expect(html).toContain('<div class="docs-table docs-table-stack"><table role="table">');
    for (const plan of PLANS) expect(html).toContain(plan.name);
  });

  it('labels every cell of a wide table with its column, for the stacked phone layout', async () => {
    const source = [
      '---',
      'title: T',
      '---',
      '| Status | `type` | Say "hi" & \'go\' |',
      '| ---: | --- | --- |',
      '| 400 | `invalid_request_error` | **Fix** it |',
      '',
      '| Field | Meaning |',
      '| --- | --- |',
      '| `a` | b |',
    ].join('\n');
    const html = htmlOf(await compileDocsPage('t', source));
    const [wide = '', narrow = ''] = html.split('</table>');
    expect(wide).toContain('<div class="docs-table docs-table-stack">');
    expect(wide).toContain('<th role="columnheader" scope="col" style="text-align:right">Status</th>');
    expect(wide).toContain('<td role="cell" data-label="Status" style="text-align:right">400</td>');
    expect(wide).toContain('<td role="cell" data-label="type"><code>invalid_request_error</code></td>');
    // The label is the header's text, escaped for an attribute.
    expect(wide).toContain(`<td role="cell" data-label="Say &quot;hi&quot; &amp; 'go'"><strong>Fix</strong> it</td>`);
    // Two columns fit a phone: no stacking.
    expect(narrow).toContain('<div class="docs-table"><table role="table">');
  });

  it('lets code that holds spaces wrap in a table cell, and keeps an identifier whole', async () => {
    const source = [
      '---',
      'title: T',
      '---',
      '| Header | Example |',
      '| --- | --- |',
      '| `x-route` | `fallback (header); openai/gpt-4o=503` |',
    ].join('\n');
    const html = htmlOf(await compileDocsPage('t', source));
    expect(html).toContain('<td role="cell" data-label="Header"><code>x-route</code></td>');
    expect(html).toContain(
      '<td role="cell" data-label="Example"><code class="docs-code-phrase">fallback (header); openai/gpt-4o=503</code></td>',
    );
    // Prose code is left alone.
    expect(htmlOf(await compileDocsPage('t', '---\ntitle: T\n---\nSay `a b` here.\n'))).toContain('<code>a b</code>');
  });

  it('refuses a page without a title and an unknown fragment', async () => {
    await expect(compileDocsPage('x', 'No front matter')).rejects.toThrow('front matter needs a title');
    await expect(compileDocsPage('x', '---\ntitle: X\n---\n{{nope}}\n')).rejects.toThrow('unknown docs fragment');
  });
});

describe('helpers', () => {
  it('parses fence info strings', () => {
    expect(parseFenceInfo('bash title="Response headers" expect-error')).toEqual({
      lang: 'bash',
      title: 'Response headers',
      flags: new Set(['expect-error']),
    });
    expect(parseFenceInfo(undefined).lang).toBe('text');
  });

  it('slugifies headings', () => {
    expect(slugify('1. Create an account & a key')).toBe('1-create-an-account-a-key');
    expect(slugify('!!!')).toBe('section');
  });
});
