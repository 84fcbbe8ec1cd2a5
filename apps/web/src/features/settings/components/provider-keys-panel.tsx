import { PROVIDER_IDS, PROVIDER_NAMES, type ProviderId, type PublicUser } from '@conductor/shared';
import { DEMO_ACCOUNT_REFUSALS } from '@conductor/shared/constants/demo-account';
import { PROVIDER_KEY_RULES } from '@conductor/shared/schemas/onboarding';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '~/lib/api-client';
import { toast } from '~/lib/toast';
import { toastFailure } from '~/lib/toast-failure';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { useRemoveProviderKey, useSaveProviderKey } from '../api/settings';

function ProviderRow({
  provider,
  masked,
  endpoint,
  ownKeysOnly,
  locked,
}: {
  provider: ProviderId;
  masked: string | undefined;
  /** Azure OpenAI: the account's own resource its key is sent to (null: the server's). */
  endpoint: string | null | undefined;
  ownKeysOnly: boolean;
  /** Keys cannot be changed here (the shared demo account): the row shows its state and offers no action. */
  locked: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const removeButton = useRef<HTMLButtonElement>(null);
  const keepButton = useRef<HTMLButtonElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const keyInput = useRef<HTMLInputElement>(null);
  // Where focus goes once the next render has committed (the focused button may be gone with it).
  const focusNext = useRef<React.RefObject<HTMLElement | null> | null>(null);
  useEffect(() => {
    const target = focusNext.current;
    focusNext.current = null;
    target?.current?.focus();
  });
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  // An Azure key belongs to one resource: its URL is asked for with it.
  const takesEndpoint = provider === 'azure';
  const [resource, setResource] = useState('');
  const [endpointError, setEndpointError] = useState<string | null>(null);
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
      await save.mutateAsync({ provider, key: parsed.data, ...(takesEndpoint && resource.trim() ? { endpoint: resource.trim() } : {}) });
      toast.success(`${name} key saved`);
      focusNext.current = addButton;
      setEditing(false);
      setValue('');
      setResource('');
      setError(null);
      setEndpointError(null);
    } catch (failure) {
      const fields = failure instanceof ApiError ? failure.fields : undefined;
      if (fields?.endpoint) setEndpointError(fields.endpoint);
      else setError(failure instanceof Error ? failure.message : 'Could not save the key.');
    }
  };

  return (
    <li className="py-3" data-testid={`provider-${provider}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium">{name}</p>
          {masked ? (
            <>
              <code className="font-mono text-xs text-muted-foreground">{masked}</code>
              {takesEndpoint && (
                <p className="text-xs break-all text-muted-foreground" data-testid="provider-endpoint">
                  {endpoint ? `Resource: ${endpoint.replace(/^https:\/\//, '')}` : "On this server's Azure resource"}
                </p>
              )}
            </>
          ) : (
            <p className="text-xs text-muted-foreground">Not set</p>
          )}
        </div>
        <div className="flex items-center gap-2">
          {masked && <Badge tone="success">active</Badge>}
          {!locked && !editing && !confirming && (
            <Button
              ref={addButton}
              variant="secondary"
              size="sm"
              onClick={() => {
                // The button goes with the form's opening: focus moves to the key field, not to the page.
                focusNext.current = keyInput;
                // A replaced Azure key keeps its resource unless the user changes it: the server reads a
                // missing URL as "this server's resource". The URL is not secret (the row shows it).
                setResource(endpoint ?? '');
                setEditing(true);
              }}
            >
              {masked ? 'Replace' : 'Add'}
            </Button>
          )}
          {!locked && masked && !editing && !confirming && (
            <Button
              ref={removeButton}
              variant="ghost"
              size="sm"
              className="text-danger"
              onClick={() => {
                focusNext.current = keepButton;
                setConfirming(true);
              }}
            >
              Remove
            </Button>
          )}
        </div>
      </div>
      {masked && confirming && (
        <fieldset aria-label={`Remove the ${name} key?`} className="mt-3 rounded-md border border-danger/40 bg-danger/5 p-3 text-sm">
          <p>
            Remove your {name} key? It cannot be shown again.{' '}
            {ownKeysOnly
              ? `Requests to ${name} models fail until you add a key again.`
              : `Requests to ${name} models then use Conductor's ${name} key under your plan's limits, where this server has one.`}
          </p>
          <div className="mt-2 flex flex-wrap gap-2">
            <Button
              variant="destructive"
              size="sm"
              disabled={remove.isPending}
              onClick={async () => {
                try {
                  await remove.mutateAsync(provider);
                  toast.success(`${name} key removed`);
                  // The focused button is gone with the confirmation: focus moves to the row's Add.
                  focusNext.current = addButton;
                  setConfirming(false);
                } catch (failure) {
                  toastFailure(failure, 'Could not remove the key.');
                }
              }}
            >
              {remove.isPending ? 'Removing...' : 'Remove key'}
            </Button>
            <Button
              ref={keepButton}
              variant="secondary"
              size="sm"
              onClick={() => {
                focusNext.current = removeButton;
                setConfirming(false);
              }}
            >
              Keep key
            </Button>
          </div>
        </fieldset>
      )}
      {editing && (
        <form onSubmit={submit} noValidate className="mt-3 flex flex-col gap-2 sm:flex-row sm:items-start">
          <div className="flex-1 space-y-1">
            <label htmlFor={inputId} className="sr-only">
              {name} API key
            </label>
            <Input
              ref={keyInput}
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
            {takesEndpoint && (
              <>
                <label htmlFor={`${inputId}-endpoint`} className="sr-only">
                  {name} resource URL
                </label>
                <Input
                  id={`${inputId}-endpoint`}
                  type="url"
                  autoComplete="off"
                  placeholder="https://your-resource.openai.azure.com"
                  value={resource}
                  aria-invalid={endpointError ? true : undefined}
                  aria-describedby={`${inputId}-endpoint-hint`}
                  onChange={(event) => {
                    setResource(event.target.value);
                    setEndpointError(null);
                  }}
                />
                <p
                  id={`${inputId}-endpoint-hint`}
                  className={`text-xs ${endpointError ? 'text-danger' : 'text-muted-foreground'}`}
                  role={endpointError ? 'alert' : undefined}
                >
                  {endpointError ??
                    "The resource your key belongs to, with deployments named gpt-4o and gpt-4o-mini. Leave it empty to use this server's."}
                </p>
              </>
            )}
          </div>
          <div className="flex gap-2">
            <Button type="submit" size="md" disabled={save.isPending}>
              {save.isPending ? 'Saving...' : 'Save'}
            </Button>
            <Button
              variant="ghost"
              onClick={() => {
                focusNext.current = addButton;
                setEditing(false);
                setValue('');
                setResource('');
                setError(null);
                setEndpointError(null);
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
  const endpoints = new Map(user.apiKeys.map((key) => [key.provider, key.endpoint]));
  const ownKeysOnly = user.plan === 'byo-keys';
  return (
    <>
      {user.isDemo && (
        <p className="mb-2 rounded-md border border-border bg-muted p-3 text-sm" data-testid="demo-provider-keys">
          {DEMO_ACCOUNT_REFUSALS.providerKeys}
        </p>
      )}
      {ownKeysOnly && user.apiKeys.length === 0 && (
        <p className="mb-2 rounded-md border border-warning/40 bg-warning/10 p-3 text-sm" data-testid="no-provider-keys">
          Your Bring Your Own Keys plan has no provider key, so API requests fail until you add one. Prefer Conductor's keys?{' '}
          <Link to="/dashboard/billing" className="font-medium text-primary hover:underline">
            Choose a plan in Billing
          </Link>
          .
        </p>
      )}
      <ul className="divide-y divide-border">
        {PROVIDER_IDS.map((provider) => (
          <ProviderRow
            key={provider}
            provider={provider}
            masked={masked.get(provider)}
            endpoint={endpoints.get(provider)}
            ownKeysOnly={ownKeysOnly}
            locked={user.isDemo}
          />
        ))}
      </ul>
    </>
  );
}
