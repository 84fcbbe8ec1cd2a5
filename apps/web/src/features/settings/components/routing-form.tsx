import { DEMO_ACCOUNT_REFUSALS } from '@conductor/shared/constants/demo-account';
import type { RoutingPolicy } from '@conductor/shared/openai/chat';
import { ROUTING_HEADER } from '@conductor/shared/openai/models';
import {
  ROUTING_CLEARED,
  ROUTING_SAVED,
  ROUTING_STRATEGIES,
  ROUTING_STRATEGY_DESCRIPTIONS,
  ROUTING_STRATEGY_LABELS,
} from '@conductor/shared/schemas/routing';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '~/components/ui/button';
import { Skeleton } from '~/components/ui/skeleton';
import { ErrorState } from '~/components/ui/state-panels';
import { ApiError } from '~/lib/api-client';
import { cn } from '~/lib/cn';
import { toast } from '~/lib/toast';
import { toastFailure } from '~/lib/toast-failure';
import { routingQuery, useSaveRouting } from '../api/settings';
import { checkPolicy, problemFromFields, type RoutingDraft, type RoutingProblem, toDraft, toPolicy } from './routing-draft';
import { TargetsEditor } from './routing-targets';

const PROBLEM_ID = 'routing-problem';

function describeSaved(policy: RoutingPolicy | null): string {
  if (!policy) return 'No account default: each request goes to the model it names (Single model).';
  const count = policy.targets?.length ?? 0;
  const targets = count === 0 ? 'no targets' : count === 1 ? '1 target' : `${count} targets`;
  return `Account default: ${ROUTING_STRATEGY_LABELS[policy.strategy]}, ${targets}.`;
}

function RoutingEditor({ saved, lockedReason }: { saved: RoutingPolicy | null; lockedReason: string | undefined }) {
  const [draft, setDraft] = useState<RoutingDraft>(() => toDraft(saved));
  const [problem, setProblem] = useState<RoutingProblem | null>(null);
  const save = useSaveRouting();
  const policy = toPolicy(draft);
  const changed = JSON.stringify(policy) !== JSON.stringify(saved);

  const edit = (next: Partial<RoutingDraft>) => {
    setDraft((current) => ({ ...current, ...next }));
    setProblem(null);
  };

  const send = async (next: RoutingPolicy | null) => {
    try {
      await save.mutateAsync(next);
      toast.success(next ? ROUTING_SAVED : ROUTING_CLEARED);
    } catch (error) {
      if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401) {
        setProblem(problemFromFields(error.message, error.fields));
      } else {
        toastFailure(error, 'Could not save the routing default.');
      }
    }
  };

  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const found = checkPolicy(policy);
    setProblem(found);
    if (!found) void send(policy);
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <p className="text-sm" data-testid="routing-current">
        {describeSaved(saved)}
      </p>
      {lockedReason && (
        <p className="rounded-md border border-border bg-muted p-3 text-sm" data-testid="demo-routing">
          {lockedReason}
        </p>
      )}
      <fieldset className="space-y-2" disabled={lockedReason !== undefined}>
        <legend className="mb-2 text-sm font-medium">Default strategy</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {ROUTING_STRATEGIES.map((strategy) => (
            <label
              key={strategy}
              className={cn(
                'flex cursor-pointer gap-3 rounded-md border p-3 transition-colors duration-150',
                'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring',
                'has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60',
                draft.strategy === strategy ? 'border-primary bg-accent/50' : 'border-border hover:bg-muted',
              )}
            >
              <input
                type="radio"
                name="routing-strategy"
                value={strategy}
                checked={draft.strategy === strategy}
                onChange={() => edit({ strategy })}
                aria-labelledby={`routing-strategy-${strategy}-label`}
                aria-describedby={`routing-strategy-${strategy}`}
                className="mt-0.5 size-4 shrink-0 accent-primary"
              />
              <span className="min-w-0">
                <span id={`routing-strategy-${strategy}-label`} className="block text-sm font-medium">
                  {ROUTING_STRATEGY_LABELS[strategy]}
                </span>
                <span id={`routing-strategy-${strategy}`} className="block text-xs text-muted-foreground">
                  {ROUTING_STRATEGY_DESCRIPTIONS[strategy]}
                </span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="min-w-0" disabled={lockedReason !== undefined}>
        <TargetsEditor
          strategy={draft.strategy}
          targets={draft.targets}
          invalid={problem}
          problemId={PROBLEM_ID}
          onChange={(targets) => edit({ targets })}
        />
      </fieldset>
      {problem && (
        <p id={PROBLEM_ID} role="alert" className="text-sm text-danger">
          {problem.message}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={save.isPending || !changed || lockedReason !== undefined}>
          {save.isPending ? 'Saving...' : 'Save routing'}
        </Button>
        <Button
          variant="secondary"
          disabled={save.isPending || saved === null || lockedReason !== undefined}
          onClick={() => void send(null)}
        >
          Clear default
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">
        A request can override this default: the <code className="font-mono">{ROUTING_HEADER}</code> header wins, then the body’s{' '}
        <code className="font-mono">conductor</code> member. See{' '}
        <Link to="/docs/best-practices#routing-policies" className="text-primary underline underline-offset-4">
          routing policies
        </Link>
        .
      </p>
    </form>
  );
}

/** The account's default routing policy: strategy and ordered targets, used when a request sends none. */
export function RoutingForm({ isDemo = false }: { isDemo?: boolean }) {
  const routing = useQuery(routingQuery());
  if (routing.isError) return <ErrorState message={routing.error.message} onRetry={() => routing.refetch()} />;
  if (!routing.data) {
    return (
      <div className="space-y-3" role="status" aria-busy="true" aria-label="Loading routing settings">
        <Skeleton className="h-5 w-2/3" />
        <div className="grid gap-2 sm:grid-cols-2">
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-16 w-full" />
          <Skeleton className="h-16 w-full" />
        </div>
      </div>
    );
  }
  // A save replaces the saved policy: the editor starts again from it.
  // The shared demo account keeps its default (it would route every visitor): shown, not editable.
  return (
    <RoutingEditor
      key={JSON.stringify(routing.data.policy)}
      saved={routing.data.policy}
      lockedReason={isDemo ? DEMO_ACCOUNT_REFUSALS.routing : undefined}
    />
  );
}
