import { TIMEOUTS_MS } from '@conductor/shared';
import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { cn } from '~/lib/cn';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    // Clipboard API unavailable (insecure context, denied permission): fall back to a selection copy.
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    return copied;
  }
}

/** Copies `text` (or what it returns when clicked); the confirmation shows for 2 seconds (spec: copy confirmation 2 s). */
export function CopyButton({ text, label = 'Copy code', className }: { text: string | (() => string); label?: string; className?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), TIMEOUTS_MS.copyConfirmation);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      onClick={async () => setState((await copyText(typeof text === 'function' ? text() : text)) ? 'copied' : 'failed')}
      className={cn(
        'inline-flex h-7 items-center gap-1.5 rounded-md px-2 text-xs font-medium text-muted-foreground transition-colors hover:bg-muted hover:text-foreground',
        state === 'copied' && 'text-success hover:text-success',
        className,
      )}
      aria-label={state === 'copied' ? 'Copied' : label}
    >
      {state === 'copied' ? <Check className="size-3.5" aria-hidden /> : <Copy className="size-3.5" aria-hidden />}
      <span aria-live="polite">{state === 'copied' ? 'Copied!' : state === 'failed' ? 'Copy failed' : 'Copy'}</span>
    </button>
  );
}
