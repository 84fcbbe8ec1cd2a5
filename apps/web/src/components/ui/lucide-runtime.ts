import { createElement, type ReactNode, type SVGProps } from 'react';

type IconNode = [tag: string, attributes: Record<string, string | number>][];
interface IconData {
  name: string;
  node: IconNode;
  size?: number;
}

/**
 * What lucide-react's icon modules call to become components, swapped in by the build
 * (`lucideRuntime` in vite.config.ts). lucide's own version (about 1.2 KB gzip on every page)
 * also supports a context provider, sizes, colours and absolute stroke widths, which this
 * app never uses; this one renders the same SVG: 24×24, `currentColor` stroke of 2, the
 * `lucide lucide-<name>` classes, and `aria-hidden` unless the icon is labelled.
 */
export default function createLucideIcon(iconOrName: IconData | string, legacyNode: IconNode = []) {
  const icon = typeof iconOrName === 'string' ? { name: iconOrName, node: legacyNode } : iconOrName;
  const box = icon.size ?? 24;
  // biome-ignore lint/correctness/noComponentHookFactories: lucide's contract; each icon module calls this once, when it loads, never while rendering.
  function LucideIcon({ className, children, ...props }: SVGProps<SVGSVGElement> & { children?: ReactNode }) {
    const labelled =
      children !== undefined || Object.keys(props).some((key) => key.startsWith('aria-') || key === 'role' || key === 'title');
    return createElement(
      'svg',
      {
        xmlns: 'http://www.w3.org/2000/svg',
        width: 24,
        height: 24,
        viewBox: `0 0 ${box} ${box}`,
        fill: 'none',
        stroke: 'currentColor',
        strokeWidth: 2,
        strokeLinecap: 'round',
        strokeLinejoin: 'round',
        className: ['lucide', `lucide-${icon.name}`, className].filter(Boolean).join(' '),
        ...(labelled ? {} : { 'aria-hidden': 'true' }),
        ...props,
      },
      ...icon.node.map(([tag, attributes]) => createElement(tag, attributes)),
      children,
    );
  }
  LucideIcon.displayName = icon.name;
  return LucideIcon;
}
