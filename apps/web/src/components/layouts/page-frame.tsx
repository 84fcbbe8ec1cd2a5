import type { ReactNode } from 'react';

/** A public page's frame: headline, lead paragraph and content column. */
export function PageFrame({ eyebrow, title, lead, children }: { eyebrow?: string; title: string; lead?: string; children?: ReactNode }) {
  return (
    <div className="mx-auto max-w-4xl px-4 py-16 sm:px-6 lg:px-8">
      {eyebrow && <p className="text-sm font-semibold text-primary">{eyebrow}</p>}
      <h1 className="mt-2 text-4xl font-semibold tracking-tight text-balance sm:text-5xl">{title}</h1>
      {lead && <p className="mt-4 text-lg text-muted-foreground text-pretty">{lead}</p>}
      {children && <div className="mt-10">{children}</div>}
    </div>
  );
}
