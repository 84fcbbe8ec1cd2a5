import { DEMO_KEYS_NOTE } from '@conductor/shared/constants/demo-account';
import { useQuery } from '@tanstack/react-query';
import { KeyRound, Plus } from 'lucide-react';
import { useState } from 'react';
import { DashboardPage } from '~/components/layouts/dashboard-page';
import { Button } from '~/components/ui/button';
import { Card } from '~/components/ui/card';
import { Skeleton } from '~/components/ui/skeleton';
import { EmptyState, ErrorState } from '~/components/ui/state-panels';
import { apiKeysQuery } from '~/features/api-keys/api/api-keys';
import { ApiKeyList } from '~/features/api-keys/components/api-key-list';
import { CreateKeyDialog } from '~/features/api-keys/components/create-key-dialog';
import { useAuth } from '~/lib/auth';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('API Keys', 'Create and manage the keys your applications use to call Conductor.', '/dashboard/keys');

export default function KeysPage() {
  const keys = useQuery(apiKeysQuery());
  const isDemo = useAuth().user?.isDemo === true;
  // One dialog for both buttons, outside the list: the first key replaces the empty state, and a
  // dialog inside it would go with it before the new key is shown.
  const [creating, setCreating] = useState(false);
  return (
    <DashboardPage
      title="API Keys"
      description="Create and manage the keys your applications use to call Conductor."
      actions={<CreateKeyDialog open={creating} onOpenChange={setCreating} />}
    >
      {isDemo && (
        <p className="rounded-md border border-border bg-muted p-3 text-sm" data-testid="demo-keys-note">
          {DEMO_KEYS_NOTE}
        </p>
      )}
      <Card className="min-w-0 py-2">
        {keys.isError ? (
          <ErrorState className="m-4" message={keys.error.message} onRetry={() => keys.refetch()} />
        ) : !keys.data ? (
          <div className="space-y-4 p-4" role="status" aria-busy="true" aria-label="Loading API keys">
            {[0, 1].map((row) => (
              <div key={row} className="flex items-center justify-between gap-4">
                <div className="space-y-2">
                  <Skeleton className="h-4 w-32" />
                  <Skeleton className="h-3 w-48" />
                </div>
                <Skeleton className="h-5 w-16 rounded-full" />
              </div>
            ))}
          </div>
        ) : keys.data.keys.length === 0 ? (
          <EmptyState
            className="m-4"
            icon={KeyRound}
            title="No API keys yet"
            action={
              <Button onClick={() => setCreating(true)}>
                <Plus className="size-4" aria-hidden="true" /> Create your first key
              </Button>
            }
          >
            Create a key to call <code className="font-mono">/v1/chat/completions</code>. Test keys (
            <code className="font-mono">cc_test_sk_</code>) are answered by the sandbox and use no quota.
          </EmptyState>
        ) : (
          <ApiKeyList keys={keys.data.keys} />
        )}
      </Card>
      <p className="text-xs text-muted-foreground">
        Keys are shown once, when created, and stored only as a hash. Masked keys show the first 16 and last 4 characters.
      </p>
    </DashboardPage>
  );
}
