// @vitest-environment node
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { bundledThemes } from 'shiki/themes';
import { describe, expect, it } from 'vitest';
import { CODE_THEMES, COLOR_REPLACEMENTS, highlight } from './highlight';

type Rgb = [number, number, number];

/** WCAG relative luminance of linear sRGB. */
const luminance = ([red, green, blue]: Rgb) => 0.2126 * red + 0.7152 * green + 0.0722 * blue;
const contrast = (first: Rgb, second: Rgb) => {
  const [light, dark] = [luminance(first), luminance(second)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};
const linear = (channel: number) => (channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4);
const fromHex = (hex: string): Rgb => {
  const digits = hex.length === 4 ? [...hex.slice(1)].map((digit) => digit + digit).join('') : hex.slice(1, 7);
  return [0, 2, 4].map((start) => linear(Number.parseInt(digits.slice(start, start + 2), 16) / 255)) as Rgb;
};
/** CSS `oklch(L C h)` to linear sRGB (https://bottosson.github.io/posts/oklab/), clipped to the gamut. */
const fromOklch = (lightness: number, chroma: number, hue: number): Rgb => {
  const a = chroma * Math.cos((hue * Math.PI) / 180);
  const b = chroma * Math.sin((hue * Math.PI) / 180);
  const l = (lightness + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (lightness - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (lightness - 0.0894841775 * a - 1.291485548 * b) ** 3;
  const rgb = [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ];
  return rgb.map((channel) => Math.min(1, Math.max(0, channel))) as Rgb;
};

/** The code blocks sit on the card token (`bg-card` in `CodeGroup`): read it from the app's stylesheet for each theme. */
const css = readFileSync(path.resolve(import.meta.dirname, '../../../app/app.css'), 'utf8');
const cardIn = (selector: string): Rgb => {
  const block = css.slice(css.indexOf(`${selector} {`));
  const match = /--card:\s*oklch\(([\d.]+) ([\d.]+) ([\d.]+)\)/.exec(block.slice(0, block.indexOf('}')));
  if (!match) throw new Error(`no --card in ${selector}`);
  return fromOklch(Number(match[1]), Number(match[2]), Number(match[3]));
};
const BACKGROUND = { light: cardIn(':root'), dark: cardIn(':root[data-theme="dark"]') };

/** Every colour the theme gives a token, as the page shows it (after our replacements). */
async function tokenColours(name: string): Promise<string[]> {
  const theme = (await bundledThemes[name as keyof typeof bundledThemes]()).default;
  const replacements: Record<string, string> = COLOR_REPLACEMENTS[name as keyof typeof COLOR_REPLACEMENTS] ?? {};
  const colours = new Set<string>([theme.colors?.['editor.foreground'] ?? '']);
  for (const rule of theme.tokenColors ?? []) {
    // Rules with their own background (diff and Markdown markup, carriage returns) come only from
    // grammars the docs do not load; the stylesheet paints no token background.
    if (rule.settings.foreground && !rule.settings.background) colours.add(rule.settings.foreground);
  }
  return [...colours].filter(Boolean).map((colour) => replacements[colour.toLowerCase()] ?? colour.toLowerCase());
}

describe('code highlighting', () => {
  it.each(Object.entries(CODE_THEMES))('gives every token of the %s theme at least 4.5:1 on the code background', async (mode, name) => {
    const background = BACKGROUND[mode as keyof typeof BACKGROUND];
    const colours = await tokenColours(name);
    expect(colours.length).toBeGreaterThan(5);
    const failing = colours.filter((colour) => contrast(fromHex(colour), background) < 4.5);
    expect(failing).toEqual([]);
  });

  it('writes the replaced colours into the highlighted HTML', async () => {
    const html = (await highlight('// a comment\nfunction double(value) {\n  return value * 2;\n}', 'js')).toLowerCase();
    expect(html).not.toContain('--shiki-dark:#6a737d');
    expect(html).toContain(`--shiki-dark:${COLOR_REPLACEMENTS['github-dark']['#6a737d']}`);
    expect(html).not.toContain('--shiki-light:#e36209');
    expect(html).toContain(`--shiki-light:${COLOR_REPLACEMENTS['github-light']['#e36209']}`);
  });
});
