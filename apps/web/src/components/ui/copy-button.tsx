import { TIMEOUTS_MS } from '@conductor/shared';
import { Check, Copy } from 'lucide-react';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { cn } from '~/lib/cn';
import { toast } from '~/lib/toast';
import { buttonClasses, type ButtonVariant } from './button';

/** The copy keys on this device. */
function copyShortcut(): string {
  const platform = typeof navigator === 'undefined' ? '' : `${navigator.platform} ${navigator.userAgent}`;
  return /Mac|iPhone|iPad|iPod/.test(platform) ? '⌘+C' : 'Ctrl+C';
}

/**
 * When the clipboard cannot be written (an insecure context, permission denied): select the text
 * so the copy keys take it. The shown text when there is one (`target`), else a hidden field beside
 * the button (inside the same dialog, so a focus trap keeps it), gone once focus leaves it.
 */
function selectForManualCopy(value: string, target: HTMLElement | null, button: HTMLElement | null): void {
  const selection = typeof window === 'undefined' ? null : window.getSelection();
  if (target && selection) {
    const range = document.createRange();
    range.selectNodeContents(target);
    selection.removeAllRanges();
    selection.addRange(range);
    return;
  }
  if (!button) return;
  const field = document.createElement('textarea');
  field.value = value;
  field.readOnly = true;
  field.setAttribute('aria-label', 'Text to copy');
  field.style.cssText = 'position:fixed;top:0;left:0;width:1px;height:1px;opacity:0;';
  field.addEventListener('blur', () => field.remove(), { once: true });
  button.insertAdjacentElement('afterend', field);
  field.focus();
  field.select();
}

/**
 * Copies `value`; the confirmation shows for 2 seconds (spec section 9). Without clipboard access,
 * selects the text (`selectTarget`'s when given) and says which keys copy it.
 */
export function CopyButton({
  value,
  label = 'Copy',
  variant = 'secondary',
  showLabel = false,
  className,
  onCopied,
  selectTarget,
}: {
  value: string;
  label?: string;
  variant?: ButtonVariant;
  showLabel?: boolean;
  className?: string;
  onCopied?: () => void;
  /** The element showing `value`, selected when the clipboard is unavailable; a hidden field otherwise. */
  selectTarget?: RefObject<HTMLElement | null>;
}) {
  const [copied, setCopied] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), TIMEOUTS_MS.copyConfirmation);
    return () => window.clearTimeout(timer);
  }, [copied]);
  return (
    <button
      ref={buttonRef}
      type="button"
      className={cn(buttonClasses(variant, showLabel ? 'sm' : 'icon'), !showLabel && 'size-8', className)}
      aria-label={copied ? 'Copied' : label}
      title={copied ? 'Copied' : label}
      onClick={async () => {
        try {
          if (!navigator.clipboard?.writeText) throw new Error('Clipboard unavailable');
          await navigator.clipboard.writeText(value);
        } catch {
          // Clipboard unavailable (insecure context) or denied: select the text for the copy keys instead.
          selectForManualCopy(value, selectTarget?.current ?? null, buttonRef.current);
          toast.info(`Could not copy automatically. The text is selected: press ${copyShortcut()} to copy it.`);
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
