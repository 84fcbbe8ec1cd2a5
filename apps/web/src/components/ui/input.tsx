import type { ComponentProps } from 'react';
import { cn } from '~/lib/cn';

export const inputClasses = (className?: string) =>
  cn(
    'flex h-10 w-full min-w-0 rounded-md border border-input bg-background px-3 text-sm shadow-xs transition-colors',
    'placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring',
    'disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-danger',
    className,
  );

export function Input({ className, type = 'text', ...props }: ComponentProps<'input'>) {
  return <input type={type} className={inputClasses(className)} {...props} />;
}
