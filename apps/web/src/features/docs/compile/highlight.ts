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

export const CODE_THEMES = { light: 'github-light', dark: 'github-dark' } as const;

/**
 * The GitHub themes' token colours that miss WCAG AA (4.5:1) on our code background (the card
 * token: white, and #11141a in dark), swapped for the nearest passing shade of the same hue.
 * `highlight.test.ts` checks every token colour of both themes against the card token.
 */
export const COLOR_REPLACEMENTS = {
  // Variables, parameters and constants: 3.5:1 on white; #b35900 is 4.8:1.
  'github-light': { '#e36209': '#b35900' },
  // Comments: 3.8:1 on the dark card; #8b949e (GitHub's own later dark comment grey) is 6:1.
  'github-dark': { '#6a737d': '#8b949e' },
} as const satisfies Record<(typeof CODE_THEMES)[keyof typeof CODE_THEMES], Record<string, string>>;

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
  highlighter ??= createHighlighter({ themes: Object.values(CODE_THEMES), langs: [...LANGS] });
  const instance = await highlighter;
  return instance.codeToHtml(code, {
    lang: normalizeLang(lang),
    themes: CODE_THEMES,
    defaultColor: false,
    colorReplacements: COLOR_REPLACEMENTS,
  });
}
