import { TIMEOUTS_MS } from '@conductor/shared';
import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { cn } from '~/lib/cn';
import { buttonClasses, type ButtonVariant } from './button';

/** Copies `value`; the confirmation shows for 2 seconds (spec section 9). */
export function CopyButton({
  value,
  label = 'Copy',
  variant = 'secondary',
  showLabel = false,
  className,
  onCopied,
}: {
  value: string;
  label?: string;
  variant?: ButtonVariant;
  showLabel?: boolean;
  className?: string;
  onCopied?: () => void;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), TIMEOUTS_MS.copyConfirmation);
    return () => window.clearTimeout(timer);
  }, [copied]);
  return (
    <button
      type="button"
      className={cn(buttonClasses(variant, showLabel ? 'sm' : 'icon'), !showLabel && 'size-8', className)}
      aria-label={copied ? 'Copied' : label}
      title={copied ? 'Copied' : label}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
        } catch {
          // Clipboard unavailable (insecure context or denied): select-and-copy still works.
          return;
        }
        setCopied(true);
        onCopied?.();
      }}
    >
      {copied ? <Check className="size-4 text-success" aria-hidden="true" /> : <Copy className="size-4" aria-hidden="true" />}
      {showLabel && <span aria-live="polite">{copied ? 'Copied' : label}</span>}
    </button>
  );
}
