import { Marked, type Token, type Tokens } from 'marked';
import type { CodeTab, DocsBlock, DocsHeading, DocsIndexEntry, DocsPageData } from '../docs-types';
import { expandFragments } from './fragments';
import { highlight, normalizeLang } from './highlight';

/** A fenced block's info string: `js title="Node.js" norun` → language, label and flags. */
export interface FenceInfo {
  lang: string;
  title: string | undefined;
  flags: Set<string>;
}

export function parseFenceInfo(info: string | undefined): FenceInfo {
  const text = (info ?? '').trim();
  const [first, ...rest] = text.split(/\s+/);
  const lang = first || 'text';
  const remainder = rest.join(' ');
  const title = /title="([^"]*)"/.exec(remainder)?.[1];
  const flags = new Set(
    remainder
      .replace(/title="[^"]*"/, '')
      .split(/\s+/)
      .filter(Boolean),
  );
  return { lang, title, flags };
}

const LABELS: Record<string, string> = {
  javascript: 'JavaScript',
  typescript: 'TypeScript',
  python: 'Python',
  go: 'Go',
  json: 'JSON',
  http: 'HTTP',
  text: 'Output',
};

export function tabLabel(info: FenceInfo, code: string): string {
  if (info.title) return info.title;
  const lang = normalizeLang(info.lang);
  if (lang === 'bash') return /(^|\s)curl\s/.test(code) ? 'cURL' : 'Shell';
  return LABELS[lang] ?? lang;
}

export function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/<[^>]+>/g, '')
      .replace(/&[a-z]+;/g, '')
      .replace(/[^a-z0-9\s-]/g, '')
      .trim()
      .replace(/\s+/g, '-')
      .replace(/-+/g, '-') || 'section'
  );
}

/** `---\nkey: value\n---` at the top of a file. */
export function parseFrontMatter(source: string): { data: Record<string, string>; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n?/.exec(source);
  if (!match) return { data: {}, body: source };
  const data: Record<string, string> = {};
  for (const line of (match[1] ?? '').split('\n')) {
    const separator = line.indexOf(':');
    if (separator > 0) data[line.slice(0, separator).trim()] = line.slice(separator + 1).trim();
  }
  return { data, body: source.slice(match[0].length) };
}

const stripTags = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const alignAttribute = (align: Tokens.TableCell['align']) => (align ? ` style="text-align:${align}"` : '');

/** Tables of this many columns or more become one card per row on a phone (docs.css): they cannot fit 375 px. */
const STACKED_TABLE_COLUMNS = 3;

/**
 * Code in a table cell stays on one line (docs.css), so `claude-3-5-sonnet` never breaks at a
 * hyphen; code that holds spaces, a whole example value, may wrap at them instead.
 */
function tableCellHtml(html: string): string {
  return html.replace(/<code>([^<]* [^<]*)<\/code>/g, '<code class="docs-code-phrase">$1</code>');
}

/**
 * A GFM table, in a scrolling frame. A wide table also carries each cell's column name
 * (`data-label`), so on a narrow screen every row reads as a card of label and value instead of
 * a table scrolled sideways; the explicit roles keep it a table for screen readers when CSS
 * changes its display.
 */
function tableHtml(token: Tokens.Table, inline: (tokens: Token[]) => string): string {
  const headings = token.header.map((cell) => inline(cell.tokens));
  const labels = headings.map((html) => stripTags(html).trim());
  const head = token.header
    .map((cell, index) => `<th role="columnheader" scope="col"${alignAttribute(cell.align)}>${headings[index]}</th>`)
    .join('');
  const rows = token.rows
    .map((row) => {
      const cells = row.map(
        (cell, index) =>
          `<td role="cell" data-label="${escapeAttribute(labels[index] ?? '')}"${alignAttribute(cell.align)}>${tableCellHtml(inline(cell.tokens))}</td>`,
      );
      return `<tr role="row">${cells.join('')}</tr>`;
    })
    .join('\n');
  const stacked = token.header.length >= STACKED_TABLE_COLUMNS ? ' docs-table-stack' : '';
  return (
    `<div class="docs-table${stacked}"><table role="table">` +
    `<thead role="rowgroup"><tr role="row">${head}</tr></thead>` +
    `<tbody role="rowgroup">${rows}</tbody></table></div>\n`
  );
}

function createRenderer(headings: DocsHeading[]) {
  const used = new Set<string>();
  const marked = new Marked({ gfm: true });
  marked.use({
    renderer: {
      heading(this: { parser: { parseInline(tokens: Token[]): string } }, { tokens, depth }: Tokens.Heading) {
        const inner = this.parser.parseInline(tokens);
        let id = slugify(stripTags(inner));
        for (let suffix = 2; used.has(id); suffix += 1) id = `${slugify(stripTags(inner))}-${suffix}`;
        used.add(id);
        if (depth === 2 || depth === 3) headings.push({ id, text: stripTags(inner), depth });
        return `<h${depth} id="${id}"><a class="docs-anchor" href="#${id}">${inner}</a></h${depth}>\n`;
      },
      link(this: { parser: { parseInline(tokens: Token[]): string } }, { href, title, tokens }: Tokens.Link) {
        const text = this.parser.parseInline(tokens);
        const external = /^https?:\/\//.test(href);
        const titleAttribute = title ? ` title="${title}"` : '';
        return `<a href="${href}"${titleAttribute}${external ? ' rel="noreferrer" target="_blank"' : ''}>${text}</a>`;
      },
      table(this: { parser: { parseInline(tokens: Token[]): string } }, token: Tokens.Table) {
        return tableHtml(token, (tokens) => this.parser.parseInline(tokens));
      },
    },
  });
  return marked;
}

/** Turns one docs Markdown file into the page data: HTML blocks, highlighted code groups, headings. */
export async function compileDocsPage(slug: string, source: string): Promise<DocsPageData> {
  const { data, body } = parseFrontMatter(source);
  if (!data.title) throw new Error(`docs/${slug}.md: front matter needs a title`);
  const headings: DocsHeading[] = [];
  const marked = createRenderer(headings);
  const tokens = marked.lexer(expandFragments(body, `${slug}.md`));
  const blocks: DocsBlock[] = [];
  let pendingHtml: Token[] = [];
  let pendingCode: CodeTab[] = [];

  const flushHtml = () => {
    if (pendingHtml.length === 0) return;
    const html = marked.parser(Object.assign(pendingHtml, { links: {} }));
    pendingHtml = [];
    const last = blocks.at(-1);
    if (last?.kind === 'html') last.html += html;
    else blocks.push({ kind: 'html', html });
  };
  const flushCode = () => {
    if (pendingCode.length === 0) return;
    blocks.push({ kind: 'code', tabs: pendingCode });
    pendingCode = [];
  };

  for (const token of tokens) {
    if (token.type === 'code') {
      flushHtml();
      const info = parseFenceInfo((token as Tokens.Code).lang);
      const code = (token as Tokens.Code).text;
      pendingCode.push({ lang: normalizeLang(info.lang), label: tabLabel(info, code), code, html: await highlight(code, info.lang) });
    } else if (token.type === 'space') {
      // Blank lines between fences keep them in one tabbed group.
    } else {
      flushCode();
      pendingHtml.push(token);
    }
  }
  flushCode();
  flushHtml();
  return { slug, title: data.title, description: data.description ?? '', headings, blocks };
}

export function toIndexEntry(page: DocsPageData): DocsIndexEntry {
  return { slug: page.slug, title: page.title, description: page.description, headings: page.headings };
}
