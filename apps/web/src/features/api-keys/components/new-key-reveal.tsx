import { AlertTriangle } from 'lucide-react';
import { useRef } from 'react';
import { CopyButton } from '~/components/ui/copy-button';

/** The full key, shown exactly once after creation. */
export function NewKeyReveal({ apiKey }: { apiKey: string }) {
  const shown = useRef<HTMLElement>(null);
  return (
    <div className="space-y-3">
      <div className="flex items-start gap-2 rounded-md bg-warning-soft p-3 text-sm text-warning">
        <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <p>Copy this key now. For your security it is stored only as a hash and will not be shown again.</p>
      </div>
      <div className="flex items-center gap-2 rounded-md border border-border bg-muted p-2">
        <code ref={shown} data-testid="new-api-key" className="min-w-0 flex-1 break-all font-mono text-xs">
          {apiKey}
        </code>
        <CopyButton value={apiKey} label="Copy API key" selectTarget={shown} />
      </div>
    </div>
  );
}
