import type { ComponentProps } from 'react';
import { cn } from '~/lib/cn';

/**
 * A table that scrolls sideways inside its own box on narrow screens. The box is positioned, so
 * absolutely placed content (screen-reader labels) scrolls and clips with the table instead of
 * widening the page.
 */
export function Table({ className, ...props }: ComponentProps<'table'>) {
  return (
    <div className="relative w-full overflow-x-auto">
      <table className={cn('w-full caption-bottom text-sm', className)} {...props} />
    </div>
  );
}

export function TableHead({ className, ...props }: ComponentProps<'thead'>) {
  return <thead className={cn('border-b border-border text-left text-xs text-muted-foreground', className)} {...props} />;
}

export function TableBody({ className, ...props }: ComponentProps<'tbody'>) {
  return <tbody className={cn('divide-y divide-border', className)} {...props} />;
}

export function Th({ className, numeric, ...props }: ComponentProps<'th'> & { numeric?: boolean }) {
  return <th scope="col" className={cn('px-3 py-2 font-medium whitespace-nowrap', numeric && 'text-right', className)} {...props} />;
}

export function Td({ className, numeric, ...props }: ComponentProps<'td'> & { numeric?: boolean }) {
  return <td className={cn('px-3 py-3 align-middle', numeric && 'text-right tabular-nums whitespace-nowrap', className)} {...props} />;
}
