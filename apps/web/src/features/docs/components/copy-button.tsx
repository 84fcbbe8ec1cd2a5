import { Check, Copy } from 'lucide-react';

/**
 * The copy button of a code block: copies the code shown and confirms for 2 seconds
 * (spec: copy confirmation 2 s). Its behaviour is `enhanceDocs` (docs-enhance.ts).
 */
export function CopyButton() {
  return (
    <button
      type="button"
      data-docs-copy=""
      className="inline-flex h-7 items-center gap-1.5 rounded-md px-2 text-xs font-medium text-muted-foreground transition-colors hover:bg-muted hover:text-foreground"
      aria-label="Copy code"
    >
      <Copy className="size-3.5" aria-hidden />
      <Check className="hidden size-3.5" aria-hidden />
      <span aria-live="polite">Copy</span>
    </button>
  );
}
