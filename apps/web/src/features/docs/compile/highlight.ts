import { createHighlighter, type Highlighter } from 'shiki';

/** Languages the docs use; anything else is shown as plain text. */
const LANGS = ['javascript', 'typescript', 'python', 'bash', 'go', 'json', 'http', 'text'] as const;
const ALIASES: Record<string, string> = {
  js: 'javascript',
  mjs: 'javascript',
  ts: 'typescript',
  sh: 'bash',
  shell: 'bash',
  curl: 'bash',
  py: 'python',
};

let highlighter: Promise<Highlighter> | undefined;

export function normalizeLang(lang: string | undefined): string {
  const id = (lang ?? 'text').toLowerCase();
  const resolved = ALIASES[id] ?? id;
  return (LANGS as readonly string[]).includes(resolved) ? resolved : 'text';
}

/**
 * Highlights at build time only (the browser never downloads shiki): one light and one dark
 * theme as CSS variables, picked by the docs stylesheet from the page's colour scheme.
 */
export async function highlight(code: string, lang: string): Promise<string> {
  highlighter ??= createHighlighter({ themes: ['github-light', 'github-dark'], langs: [...LANGS] });
  const instance = await highlighter;
  return instance.codeToHtml(code, {
    lang: normalizeLang(lang),
    themes: { light: 'github-light', dark: 'github-dark' },
    defaultColor: false,
  });
}
