import type { ApiKeyView } from '@conductor/shared/schemas/api-keys';
import { API_KEY_PERMISSION_LABELS } from '@conductor/shared/schemas/api-keys';
import { Pencil, Trash2 } from 'lucide-react';
import { useRef, useState } from 'react';
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

/**
 * The table's columns. The key's has room for the whole masked key (16 + '...' + 4 characters of
 * mono text, ~166 px), so the table needs ~55rem; `@4xl` (56rem) is the list's own width, not the
 * window's: beside the sidebar, or in a narrow window, the list stays as cards.
 */
const COLUMNS = '@4xl:grid-cols-[minmax(8rem,1.2fr)_minmax(11rem,1.6fr)_7rem_7rem_7.5rem_7.5rem]';

type DialogButton = 'edit' | 'revoke';

/** Keys as cards while the list is narrow (phones, tablets, beside the sidebar), a table-like grid once it is wide. */
export function ApiKeyList({ keys }: { keys: ApiKeyView[] }) {
  const [renaming, setRenaming] = useState<ApiKeyView | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyView | null>(null);
  const list = useRef<HTMLUListElement>(null);
  // The row and button a dialog was opened from: the dialogs have no Trigger, so focus is handed back by hand.
  const opener = useRef<{ id: string; button: DialogButton } | null>(null);
  const open = (key: ApiKeyView, button: DialogButton) => {
    opener.current = { id: key.id, button };
    (button === 'edit' ? setRenaming : setRevoking)(key);
  };
  /** Back to the button that opened the dialog; when it is now disabled (the key was revoked), the row's other one; else the list. */
  const returnFocus = (event: Event) => {
    event.preventDefault();
    const from = opener.current;
    const row = from
      ? Array.from(list.current?.querySelectorAll<HTMLElement>('[data-key-id]') ?? []).find((item) => item.dataset.keyId === from.id)
      : undefined;
    const order: DialogButton[] = from?.button === 'revoke' ? ['revoke', 'edit'] : ['edit', 'revoke'];
    const button = order
      .map((action) => row?.querySelector<HTMLButtonElement>(`button[data-action="${action}"]`))
      .find((candidate) => candidate && !candidate.disabled);
    (button ?? list.current)?.focus();
  };
  return (
    <div className="@container">
      <div className={`hidden gap-4 border-b border-border px-4 pb-2 text-xs font-medium text-muted-foreground @4xl:grid ${COLUMNS}`}>
        <span>Name</span>
        <span>Key</span>
        <span>Created</span>
        <span>Last used</span>
        <span>Status</span>
        <span className="text-right">Actions</span>
      </div>
      <ul ref={list} tabIndex={-1} className="divide-y divide-border focus:outline-none" aria-label="API keys">
        {keys.map((key) => (
          <li
            key={key.id}
            data-testid="api-key-row"
            data-key-id={key.id}
            className={`grid grid-cols-1 gap-2 px-4 py-4 @4xl:items-center @4xl:gap-4 ${COLUMNS}`}
          >
            <div className="min-w-0">
              <p className="flex min-w-0 items-center gap-2">
                <span className="truncate font-medium" title={key.name}>
                  {key.name}
                </span>
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
            {/* Never cut: the column is sized for it, and a narrower card wraps it rather than hide its end. */}
            <code className="min-w-0 break-all font-mono text-xs text-muted-foreground">{key.masked}</code>
            <span className="text-sm">
              <span className="text-muted-foreground @4xl:hidden">Created </span>
              {formatDate(key.createdAt)}
            </span>
            <span className="text-sm">
              <span className="text-muted-foreground @4xl:hidden">Last used </span>
              {key.lastUsedAt ? formatRelative(key.lastUsedAt) : 'Never'}
            </span>
            <span className="flex flex-wrap items-center gap-2 @4xl:flex-col @4xl:items-start @4xl:gap-1">
              <StatusBadge status={key.status} />
              {key.status === 'active' && key.expiresAt && (
                <span className="text-xs text-muted-foreground">
                  expires <span className="whitespace-nowrap">{formatDate(key.expiresAt)}</span>
                </span>
              )}
            </span>
            <div className="flex gap-1 @4xl:justify-end">
              {/* The full key is never stored, so it cannot be copied here; the id names the key to the dashboard API and to support. */}
              <CopyButton value={key.id} label={`Copy key ID of ${key.name}`} variant="ghost" />
              <button
                type="button"
                className={`${buttonClasses('ghost', 'icon')} size-8`}
                data-action="edit"
                aria-label={`Edit ${key.name}`}
                title={key.lockedReason ?? 'Edit'}
                disabled={key.lockedReason !== undefined}
                onClick={() => open(key, 'edit')}
              >
                <Pencil className="size-4" aria-hidden="true" />
              </button>
              <button
                type="button"
                className={`${buttonClasses('ghost', 'icon')} size-8 text-danger`}
                data-action="revoke"
                aria-label={`Revoke ${key.name}`}
                title={key.lockedReason ?? (key.status === 'revoked' ? 'Already revoked' : 'Revoke')}
                disabled={key.status === 'revoked' || key.lockedReason !== undefined}
                onClick={() => open(key, 'revoke')}
              >
                <Trash2 className="size-4" aria-hidden="true" />
              </button>
            </div>
          </li>
        ))}
      </ul>
      <RenameKeyDialog apiKey={renaming} onClose={() => setRenaming(null)} onCloseAutoFocus={returnFocus} />
      <RevokeKeyDialog apiKey={revoking} onClose={() => setRevoking(null)} onCloseAutoFocus={returnFocus} />
    </div>
  );
}
