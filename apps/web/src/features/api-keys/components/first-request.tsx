import { Terminal } from 'lucide-react';
import { useRef } from 'react';
import { toastFailure } from '~/lib/toast-failure';
import { Button } from '~/components/ui/button';
import { CopyButton } from '~/components/ui/copy-button';
import { useCreateApiKey } from '../api/api-keys';
import { NewKeyReveal } from './new-key-reveal';

function snippet(origin: string, key: string): string {
  return [
    `curl ${origin}/v1/chat/completions \\`,
    `  -H "Authorization: Bearer ${key}" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '{"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "Hello, Conductor!"}]}'`,
  ].join('\n');
}

/**
 * The empty state of a new account: create a test key right here and make a first request with it.
 * The page holds the key (`apiKey`, set through `onKeyCreated`), so that it outlives this card: the
 * card may leave the page while the key is being created (a request from elsewhere arrives), and the
 * page keeps it on screen with the key until the user dismisses it (`onDismiss`), also after the
 * first request has arrived (`requestSeen`): the key is never shown again.
 */
export function FirstRequest({
  apiKey: key,
  onKeyCreated,
  requestSeen = false,
  onDismiss,
}: {
  apiKey: string | null;
  onKeyCreated: (key: string) => void;
  requestSeen?: boolean;
  onDismiss?: () => void;
}) {
  const create = useCreateApiKey();
  const snippetText = useRef<HTMLPreElement>(null);
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const code = snippet(origin, key ?? 'cc_test_sk_YOUR_KEY');
  return (
    <div className="space-y-4">
      <div className="flex items-start gap-3">
        <Terminal className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
        <div>
          <p className="font-medium">{requestSeen ? 'Your first request is in.' : 'No requests yet. Make your first one.'}</p>
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {requestSeen
              ? 'It is listed below and on the Usage page. Copy the key before you dismiss this: it will not be shown again.'
              : key
                ? 'Run this in a terminal; the request will appear here and on the Usage page.'
                : 'Create a test key (served by the sandbox, no quota used) and the snippet below will include it.'}
          </p>
        </div>
      </div>
      {key ? (
        <>
          <NewKeyReveal apiKey={key} />
          {onDismiss && (
            <Button size="sm" variant="secondary" onClick={onDismiss}>
              Dismiss
            </Button>
          )}
        </>
      ) : (
        <Button
          size="sm"
          disabled={create.isPending}
          onClick={async () => {
            try {
              const result = await create.mutateAsync({ name: 'First test key', environment: 'test', permissions: ['api'] });
              onKeyCreated(result.key);
            } catch (error) {
              toastFailure(error, 'Could not create a key.');
            }
          }}
        >
          {create.isPending ? 'Creating...' : 'Create a test key'}
        </Button>
      )}
      {/* The copy button sits in a bar above the code, not over it: in a narrow card the lines scroll under a corner button. */}
      <div className="min-w-0 rounded-md bg-muted">
        <div className="flex items-center justify-between gap-2 border-b border-border py-1 pr-1 pl-4">
          <span className="font-mono text-xs text-muted-foreground">curl</span>
          <CopyButton value={code} label="Copy snippet" variant="ghost" selectTarget={snippetText} />
        </div>
        <pre ref={snippetText} className="overflow-x-auto p-4 font-mono text-xs leading-relaxed" data-testid="first-request-snippet">
          {code}
        </pre>
      </div>
    </div>
  );
}
