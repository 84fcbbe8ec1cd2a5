import { PROVIDER_IDS, PROVIDER_NAMES, type ProviderId, type PublicUser } from '@conductor/shared';
import { PROVIDER_KEY_RULES } from '@conductor/shared/schemas/onboarding';
import { useState } from 'react';
import { toast } from '~/lib/toast';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { useRemoveProviderKey, useSaveProviderKey } from '../api/settings';

function ProviderRow({ provider, masked }: { provider: ProviderId; masked: string | undefined }) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = useSaveProviderKey();
  const remove = useRemoveProviderKey();
  const name = PROVIDER_NAMES[provider];
  const inputId = `provider-key-${provider}`;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = PROVIDER_KEY_RULES[provider].safeParse(value);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Invalid key');
      return;
    }
    try {
      await save.mutateAsync({ provider, key: parsed.data });
      toast.success(`${name} key saved`);
      setEditing(false);
      setValue('');
      setError(null);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'Could not save the key.');
    }
  };

  return (
    <li className="py-3" data-testid={`provider-${provider}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium">{name}</p>
          {masked ? (
            <code className="font-mono text-xs text-muted-foreground">{masked}</code>
          ) : (
            <p className="text-xs text-muted-foreground">Not set</p>
          )}
        </div>
        <div className="flex items-center gap-2">
          {masked && <Badge tone="success">active</Badge>}
          {!editing && (
            <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
              {masked ? 'Replace' : 'Add'}
            </Button>
          )}
          {masked && !editing && (
            <Button
              variant="ghost"
              size="sm"
              className="text-danger"
              disabled={remove.isPending}
              onClick={async () => {
                try {
                  const user = await remove.mutateAsync(provider);
                  toast.success(`${name} key removed${user.plan === 'free' ? '. You are back on the Free hosted plan.' : ''}`);
                } catch (failure) {
                  toast.error(failure instanceof Error ? failure.message : 'Could not remove the key.');
                }
              }}
            >
              Remove
            </Button>
          )}
        </div>
      </div>
      {editing && (
        <form onSubmit={submit} noValidate className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-start">
          <div className="flex-1 space-y-1">
            <label htmlFor={inputId} className="sr-only">
              {name} API key
            </label>
            <Input
              id={inputId}
              type="password"
              autoComplete="off"
              placeholder={`${name} API key`}
              value={value}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${inputId}-error` : undefined}
              onChange={(event) => {
                setValue(event.target.value);
                setError(null);
              }}
            />
            {error && (
              <p id={`${inputId}-error`} role="alert" className="text-sm text-danger">
                {error}
              </p>
            )}
          </div>
          <div className="flex gap-2">
            <Button type="submit" size="md" disabled={save.isPending}>
              {save.isPending ? 'Saving...' : 'Save'}
            </Button>
            <Button
              variant="ghost"
              onClick={() => {
                setEditing(false);
                setValue('');
                setError(null);
              }}
            >
              Cancel
            </Button>
          </div>
        </form>
      )}
    </li>
  );
}

/** Add, replace or remove your own provider keys; they are stored encrypted and only ever shown masked. */
export function ProviderKeysPanel({ user }: { user: PublicUser }) {
  const masked = new Map(user.apiKeys.map((key) => [key.provider, key.masked]));
  return (
    <ul className="divide-y divide-border">
      {PROVIDER_IDS.map((provider) => (
        <ProviderRow key={provider} provider={provider} masked={masked.get(provider)} />
      ))}
    </ul>
  );
}
