import type { ReactNode } from 'react';
import { cn } from '~/lib/cn';

/** A public page's frame: headline, lead paragraph and content column (`wide` for pages with a side navigation). */
export function PageFrame({
  eyebrow,
  title,
  lead,
  children,
  wide = false,
}: {
  eyebrow?: string;
  title: string;
  lead?: string;
  children?: ReactNode;
  wide?: boolean;
}) {
  return (
    <div className={cn('mx-auto px-4 py-16 sm:px-6 lg:px-8', wide ? 'max-w-6xl' : 'max-w-4xl')}>
      {eyebrow && <p className="text-sm font-semibold text-primary">{eyebrow}</p>}
      <h1 className="mt-2 text-4xl font-semibold tracking-tight text-balance sm:text-5xl">{title}</h1>
      {lead && <p className="mt-4 max-w-3xl text-lg text-muted-foreground text-pretty">{lead}</p>}
      {children && <div className="mt-12">{children}</div>}
    </div>
  );
}
