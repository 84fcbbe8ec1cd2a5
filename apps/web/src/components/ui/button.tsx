import type { ComponentProps } from 'react';
import { cn } from '~/lib/cn';

const VARIANTS = {
  primary: 'bg-primary text-primary-foreground shadow-sm hover:bg-primary/90',
  secondary: 'border border-border bg-card text-foreground shadow-sm hover:bg-muted',
  ghost: 'text-foreground hover:bg-muted',
  destructive: 'bg-danger-solid text-white shadow-sm hover:bg-danger-solid/90',
  link: 'text-primary underline-offset-4 hover:underline',
} as const;
const SIZES = {
  sm: 'h-8 px-3 text-sm',
  md: 'h-10 px-4 text-sm',
  lg: 'h-12 px-6 text-base',
  icon: 'size-10',
} as const;

export type ButtonVariant = keyof typeof VARIANTS;

export function buttonClasses(variant: ButtonVariant = 'primary', size: keyof typeof SIZES = 'md', className?: string) {
  return cn(
    'inline-flex items-center justify-center gap-2 rounded-md font-medium whitespace-nowrap transition-colors duration-150',
    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:pointer-events-none disabled:opacity-60',
    VARIANTS[variant],
    SIZES[size],
    className,
  );
}

/** A button's props, `ref` included (React 19 passes it as a prop). */
export interface ButtonProps extends ComponentProps<'button'> {
  variant?: ButtonVariant;
  size?: keyof typeof SIZES;
}

export function Button({ variant, size, className, type, ...props }: ButtonProps) {
  return <button type={type ?? 'button'} className={buttonClasses(variant, size, className)} {...props} />;
}
