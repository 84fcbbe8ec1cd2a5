import { PROVIDER_IDS, PROVIDER_NAMES, type ProviderId } from '@conductor/shared';
import { MAX_ROUTING_TARGETS, ROUTING_WITHOUT_TARGETS } from '@conductor/shared/schemas/routing';
import type { RoutingStrategy } from '@conductor/shared/openai/chat';
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { Select } from '~/components/ui/select';
import { cn } from '~/lib/cn';
import { type DraftTarget, modelsOf, newTarget } from './routing-draft';

const ORDER_HINT: Record<RoutingStrategy, string> = {
  single: 'One target: the model every request goes to, whatever model it names.',
  fallback: 'Tried from the top: the first target serves, the next ones take over when it fails.',
  loadbalance: 'Each target gets requests in proportion to its weight (1 when empty); the others stay as fallbacks.',
  cost: 'Ranked by price at request time, so the order here does not matter.',
};

interface TargetsEditorProps {
  strategy: RoutingStrategy;
  targets: DraftTarget[];
  /** The target (and its field) a problem is about: that control is marked invalid and described by the problem. */
  invalid: { target?: number; field?: 'model' | 'weight' } | null;
  problemId: string;
  onChange(targets: DraftTarget[]): void;
}

function move<T>(items: T[], from: number, to: number): T[] {
  const next = [...items];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

/** The ordered list of routing targets: provider, a model of that provider, a weight for Load balance. */
export function TargetsEditor({ strategy, targets, invalid, problemId, onChange }: TargetsEditorProps) {
  const update = (index: number, patch: Partial<DraftTarget>) =>
    onChange(targets.map((target, at) => (at === index ? { ...target, ...patch } : target)));
  const weighted = strategy === 'loadbalance';

  return (
    <div className="space-y-3">
      <div className="flex items-baseline justify-between gap-2">
        <h3 id="routing-targets" className="text-sm font-medium">
          Targets
        </h3>
        <span className="text-xs text-muted-foreground tabular-nums">
          {targets.length} of {MAX_ROUTING_TARGETS}
        </span>
      </div>
      {targets.length === 0 ? (
        <p className="rounded-md border border-dashed border-border px-3 py-3 text-sm text-muted-foreground">
          No targets: requests go to {ROUTING_WITHOUT_TARGETS[strategy].charAt(0).toLowerCase()}
          {ROUTING_WITHOUT_TARGETS[strategy].slice(1)}
        </p>
      ) : (
        <>
          <p className="text-xs text-muted-foreground">{ORDER_HINT[strategy]}</p>
          <ol aria-labelledby="routing-targets" className="space-y-2">
            {targets.map((target, index) => {
              const number = index + 1;
              const id = `routing-target-${target.key}`;
              const wrong = invalid?.target === index;
              const aria = (field: 'model' | 'weight') => {
                const marked = wrong && (invalid?.field ?? 'model') === field;
                return { 'aria-invalid': marked ? true : undefined, 'aria-describedby': marked ? problemId : undefined };
              };
              return (
                <li
                  key={target.key}
                  data-testid="routing-target"
                  className={cn('rounded-md border bg-background/60 p-3', wrong ? 'border-danger' : 'border-border')}
                >
                  <div className="mb-2 flex items-center justify-between gap-2">
                    <span className="text-xs font-medium text-muted-foreground">Target {number}</span>
                    <div className="flex gap-1">
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={`Move target ${number} up`}
                        disabled={index === 0}
                        onClick={() => onChange(move(targets, index, index - 1))}
                      >
                        <ArrowUp className="size-4" />
                      </Button>
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={`Move target ${number} down`}
                        disabled={index === targets.length - 1}
                        onClick={() => onChange(move(targets, index, index + 1))}
                      >
                        <ArrowDown className="size-4" />
                      </Button>
                      <Button
                        variant="ghost"
                        size="icon"
                        className="text-danger"
                        aria-label={`Remove target ${number}`}
                        onClick={() => onChange(targets.filter((_, at) => at !== index))}
                      >
                        <Trash2 className="size-4" />
                      </Button>
                    </div>
                  </div>
                  <div className={cn('grid gap-3', weighted ? 'sm:grid-cols-[minmax(0,1fr)_minmax(0,1.4fr)_6rem]' : 'sm:grid-cols-2')}>
                    <div className="min-w-0 space-y-1.5">
                      <Label htmlFor={`${id}-provider`}>
                        Provider<span className="sr-only"> for target {number}</span>
                      </Label>
                      <Select
                        id={`${id}-provider`}
                        className="w-full"
                        value={target.provider}
                        onChange={(event) => {
                          const provider = event.target.value as ProviderId;
                          update(index, { provider, model: modelsOf(provider)[0]?.id ?? '' });
                        }}
                      >
                        {PROVIDER_IDS.map((provider) => (
                          <option key={provider} value={provider}>
                            {PROVIDER_NAMES[provider]}
                          </option>
                        ))}
                      </Select>
                    </div>
                    <div className="min-w-0 space-y-1.5">
                      <Label htmlFor={`${id}-model`}>
                        Model<span className="sr-only"> for target {number}</span>
                      </Label>
                      <Select
                        id={`${id}-model`}
                        className="w-full"
                        value={target.model}
                        {...aria('model')}
                        onChange={(event) => update(index, { model: event.target.value })}
                      >
                        {modelsOf(target.provider).map((model) => (
                          <option key={model.id} value={model.id}>
                            {model.id}
                          </option>
                        ))}
                        {!modelsOf(target.provider).some((model) => model.id === target.model) && (
                          <option value={target.model}>{target.model || 'Choose a model'}</option>
                        )}
                      </Select>
                    </div>
                    {weighted && (
                      <div className="min-w-0 space-y-1.5">
                        <Label htmlFor={`${id}-weight`}>
                          Weight<span className="sr-only"> for target {number}</span>
                        </Label>
                        <Input
                          id={`${id}-weight`}
                          className="h-9"
                          type="number"
                          inputMode="decimal"
                          min={1}
                          max={1000}
                          step={1}
                          placeholder="1"
                          value={target.weight}
                          {...aria('weight')}
                          onChange={(event) => update(index, { weight: event.target.value })}
                        />
                      </div>
                    )}
                  </div>
                </li>
              );
            })}
          </ol>
        </>
      )}
      <Button
        variant="secondary"
        size="sm"
        disabled={targets.length >= MAX_ROUTING_TARGETS}
        onClick={() => onChange([...targets, newTarget(targets)])}
      >
        <Plus className="size-4" aria-hidden="true" />
        Add target
      </Button>
    </div>
  );
}
