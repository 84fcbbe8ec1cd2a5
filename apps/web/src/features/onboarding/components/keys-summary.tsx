import { PROVIDER_NAMES, type PublicUser } from '@conductor/shared';
import { Badge } from '~/components/ui/badge';

/** Step 3 (and step 2 on a return): the saved keys, masked (first 8 + last 4); an Azure key with the resource it is sent to. */
export function KeysSummary({ keys, label = 'Configured provider keys' }: { keys: PublicUser['apiKeys']; label?: string }) {
  if (keys.length === 0) {
    // Every key is optional: none saved is a plan whose requests fail until one is added.
    return (
      <p className="rounded-lg border border-border bg-muted p-4 text-sm" data-testid="summary-no-keys">
        No provider key saved. API requests fail until you add one in Settings → Provider keys, or choose a plan with Conductor's keys in
        Billing.
      </p>
    );
  }
  return (
    <ul className="divide-y divide-border rounded-lg border border-border" aria-label={label}>
      {keys.map((key) => (
        <li key={key.provider} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
          <span className="min-w-0">
            <span className="block font-medium">{PROVIDER_NAMES[key.provider]}</span>
            {key.provider === 'azure' && (
              <span className="block text-xs break-all text-muted-foreground" data-testid="summary-azure-endpoint">
                {key.endpoint ? `Resource: ${key.endpoint.replace(/^https:\/\//, '')}` : "On this server's Azure resource"}
              </span>
            )}
          </span>
          <span className="flex items-center gap-3">
            <code className="font-mono text-sm text-muted-foreground">{key.masked}</code>
            <Badge tone={key.active ? 'success' : 'neutral'}>{key.active ? 'active' : 'inactive'}</Badge>
          </span>
        </li>
      ))}
    </ul>
  );
}
