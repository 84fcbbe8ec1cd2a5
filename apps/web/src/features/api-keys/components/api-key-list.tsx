import type { ApiKeyView } from '@conductor/shared/schemas/api-keys';
import { API_KEY_PERMISSION_LABELS } from '@conductor/shared/schemas/api-keys';
import { Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '~/components/ui/badge';
import { buttonClasses } from '~/components/ui/button';
import { CopyButton } from '~/components/ui/copy-button';
import { formatDate, formatRelative } from '~/lib/format';
import { RenameKeyDialog } from './rename-key-dialog';
import { RevokeKeyDialog } from './revoke-key-dialog';

function StatusBadge({ status }: { status: ApiKeyView['status'] }) {
  // Spec: active keys look active, anything else neutral.
  return <Badge tone={status === 'active' ? 'success' : 'neutral'}>{status}</Badge>;
}

/** Keys as cards on phones, a table-like grid from `md` up. */
export function ApiKeyList({ keys }: { keys: ApiKeyView[] }) {
  const [renaming, setRenaming] = useState<ApiKeyView | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyView | null>(null);
  return (
    <>
      <div className="hidden grid-cols-[minmax(0,1.2fr)_minmax(0,1.6fr)_7rem_7rem_7.5rem_7.5rem] gap-4 border-b border-border px-4 pb-2 text-xs font-medium text-muted-foreground md:grid">
        <span>Name</span>
        <span>Key</span>
        <span>Created</span>
        <span>Last used</span>
        <span>Status</span>
        <span className="text-right">Actions</span>
      </div>
      <ul className="divide-y divide-border" aria-label="API keys">
        {keys.map((key) => (
          <li
            key={key.id}
            data-testid="api-key-row"
            className="grid grid-cols-1 gap-2 px-4 py-4 md:grid-cols-[minmax(0,1.2fr)_minmax(0,1.6fr)_7rem_7rem_7.5rem_7.5rem] md:items-center md:gap-4"
          >
            <div className="min-w-0">
              <p className="flex min-w-0 items-center gap-2">
                <span className="truncate font-medium">{key.name}</span>
                {key.lockedReason && (
                  <Badge tone="neutral" className="shrink-0">
                    sample
                  </Badge>
                )}
              </p>
              <p className="text-xs text-muted-foreground">
                <Badge tone={key.environment === 'live' ? 'accent' : 'neutral'} className="mr-1">
                  {key.environment}
                </Badge>
                {key.permissions.map((permission) => API_KEY_PERMISSION_LABELS[permission]).join(', ')}
              </p>
            </div>
            <code className="truncate font-mono text-xs text-muted-foreground">{key.masked}</code>
            <span className="text-sm">
              <span className="text-muted-foreground md:hidden">Created </span>
              {formatDate(key.createdAt)}
            </span>
            <span className="text-sm">
              <span className="text-muted-foreground md:hidden">Last used </span>
              {key.lastUsedAt ? formatRelative(key.lastUsedAt) : 'Never'}
            </span>
            <span className="flex flex-wrap items-center gap-2 md:flex-col md:items-start md:gap-1">
              <StatusBadge status={key.status} />
              {key.status === 'active' && key.expiresAt && (
                <span className="text-xs text-muted-foreground">
                  expires <span className="whitespace-nowrap">{formatDate(key.expiresAt)}</span>
                </span>
              )}
            </span>
            <div className="flex gap-1 md:justify-end">
              <CopyButton value={key.masked} label={`Copy masked key of ${key.name}`} variant="ghost" />
              <button
                type="button"
                className={`${buttonClasses('ghost', 'icon')} size-8`}
                aria-label={`Edit ${key.name}`}
                title={key.lockedReason ?? 'Edit'}
                disabled={key.lockedReason !== undefined}
                onClick={() => setRenaming(key)}
              >
                <Pencil className="size-4" aria-hidden="true" />
              </button>
              <button
                type="button"
                className={`${buttonClasses('ghost', 'icon')} size-8 text-danger`}
                aria-label={`Revoke ${key.name}`}
                title={key.lockedReason ?? (key.status === 'revoked' ? 'Already revoked' : 'Revoke')}
                disabled={key.status === 'revoked' || key.lockedReason !== undefined}
                onClick={() => setRevoking(key)}
              >
                <Trash2 className="size-4" aria-hidden="true" />
              </button>
            </div>
          </li>
        ))}
      </ul>
      <RenameKeyDialog apiKey={renaming} onClose={() => setRenaming(null)} />
      <RevokeKeyDialog apiKey={revoking} onClose={() => setRevoking(null)} />
    </>
  );
}
