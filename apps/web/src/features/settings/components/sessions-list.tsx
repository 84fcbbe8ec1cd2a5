import { DEMO_SESSIONS_NOTE } from '@conductor/shared/constants/demo-account';
import type { SessionView } from '@conductor/shared/schemas/settings';
import { useQuery } from '@tanstack/react-query';
import { Monitor } from 'lucide-react';
import { toast } from '~/lib/toast';
import { toastFailure } from '~/lib/toast-failure';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { Skeleton } from '~/components/ui/skeleton';
import { ErrorState } from '~/components/ui/state-panels';
import { formatRelative } from '~/lib/format';
import { sessionsQuery, useRevokeSession } from '../api/settings';

/** A short, human description of a user agent ("Chrome on macOS"). */
export function describeAgent(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : /curl\//.test(userAgent)
            ? 'curl'
            : 'Browser';
  const os = /Windows/.test(userAgent)
    ? 'Windows'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Mac OS X/.test(userAgent)
        ? 'macOS'
        : /Android/.test(userAgent)
          ? 'Android'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  return os ? `${browser} on ${os}` : browser;
}

function SessionRow({ session }: { session: SessionView }) {
  const revoke = useRevokeSession();
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="session-row">
      <div className="flex min-w-0 items-center gap-3">
        <Monitor className="size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
        <div className="min-w-0">
          <p className="font-medium">
            {describeAgent(session.userAgent)} {session.current && <Badge tone="accent">This device</Badge>}
          </p>
          <p className="text-xs text-muted-foreground">
            {session.ip ? `${session.ip} · ` : ''}Active {formatRelative(session.lastSeenAt)} · Signed in{' '}
            {formatRelative(session.createdAt)}
          </p>
        </div>
      </div>
      {!session.current && (
        <Button
          variant="secondary"
          size="sm"
          disabled={revoke.isPending}
          onClick={async () => {
            try {
              await revoke.mutateAsync(session.id);
              toast.success('Session signed out');
            } catch (error) {
              toastFailure(error, 'Could not sign out that session.');
            }
          }}
        >
          {revoke.isPending ? 'Revoking...' : 'Revoke'}
        </Button>
      )}
    </li>
  );
}

/** The account's sessions; the shared demo account is answered with the caller's own only, and says so. */
export function SessionsList({ isDemo = false }: { isDemo?: boolean }) {
  const sessions = useQuery(sessionsQuery());
  if (sessions.isError) return <ErrorState message={sessions.error.message} onRetry={() => sessions.refetch()} />;
  if (!sessions.data) {
    return (
      <div className="space-y-3" role="status" aria-busy="true" aria-label="Loading sessions">
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-full" />
      </div>
    );
  }
  return (
    <>
      <ul className="divide-y divide-border" aria-label="Active sessions">
        {sessions.data.sessions.map((session) => (
          <SessionRow key={session.id} session={session} />
        ))}
      </ul>
      {isDemo && <p className="mt-2 text-xs text-muted-foreground">{DEMO_SESSIONS_NOTE}</p>}
    </>
  );
}
