import { DEMO_ACCOUNT_REFUSALS } from '@conductor/shared/constants/demo-account';
import { API_KEY_EXPIRY_DAYS, API_KEY_PERMISSION_MESSAGES, type ApiKeyPermissionId } from '@conductor/shared/schemas/api-keys';
import { ApiKeyName } from '@conductor/shared/schemas/api-keys';
import { zodResolver } from '@hookform/resolvers/zod';
import { Plus } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '~/lib/toast';
import { toastFailure } from '~/lib/toast-failure';
import { z } from 'zod';
import { Button } from '~/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '~/components/ui/dialog';
import { Field, fieldAria } from '~/components/ui/field';
import { Input } from '~/components/ui/input';
import { Select } from '~/components/ui/select';
import { useAuth } from '~/lib/auth';
import { useCreateApiKey } from '../api/api-keys';
import { NewKeyReveal } from './new-key-reveal';

const CreateKeyForm = z
  .object({
    name: ApiKeyName,
    environment: z.enum(['live', 'test']),
    api: z.boolean(),
    admin: z.boolean(),
    expiry: z.enum(['never', ...API_KEY_EXPIRY_DAYS.map(String)] as [string, ...string[]]),
  })
  // Admin Access alone makes a key the gateway refuses on every call: API Access is required (as on the server).
  .refine((values) => values.api, { path: ['api'], message: API_KEY_PERMISSION_MESSAGES.apiRequired });
type CreateKeyValues = z.infer<typeof CreateKeyForm>;

const EXPIRY_LABELS: Record<string, string> = { never: 'Never', '7': '7 days', '30': '30 days', '90': '90 days', '365': '1 year' };

/**
 * The create dialog with its one-time reveal of the new key. `open`/`onOpenChange` let the page
 * open it from elsewhere (the empty list's button): the dialog must live outside what the new key
 * changes, or the list's refresh after the creation unmounts it with the key unseen.
 */
export function CreateKeyDialog({
  triggerLabel = 'Create API Key',
  open: controlledOpen,
  onOpenChange: setControlledOpen,
}: {
  triggerLabel?: string;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}) {
  const [ownOpen, setOwnOpen] = useState(false);
  const open = controlledOpen ?? ownOpen;
  const setOpen = setControlledOpen ?? setOwnOpen;
  const [created, setCreated] = useState<string | null>(null);
  // Counts the dialog's closings (and its unmount): a result that arrives after the opening that
  // asked for it has ended is never shown in a later one.
  const opening = useRef(0);
  const content = useRef<HTMLDivElement>(null);
  const create = useCreateApiKey();
  const creating = create.isPending;
  // The shared demo account creates test keys only (a live one would spend the operator's provider keys).
  const testOnly = useAuth().user?.isDemo === true;
  const form = useForm<CreateKeyValues>({
    resolver: zodResolver(CreateKeyForm),
    defaultValues: { name: '', environment: testOnly ? 'test' : 'live', api: true, admin: false, expiry: 'never' },
  });
  const { errors } = form.formState;

  const { reset: resetForm } = form;
  const { reset: resetCreate } = create;
  // Closed (by the user or by the page): the next opening starts from an empty form.
  useEffect(() => {
    if (open) return;
    opening.current += 1;
    setCreated(null);
    resetForm();
    resetCreate();
  }, [open, resetForm, resetCreate]);
  useEffect(
    () => () => {
      opening.current += 1;
    },
    [],
  );
  // The dialog's own close button (in DialogContent) is disabled too while the key is being created.
  useLayoutEffect(() => {
    const close = Array.from(content.current?.children ?? []).find(
      (child): child is HTMLButtonElement => child instanceof HTMLButtonElement && child.getAttribute('aria-label') === 'Close',
    );
    if (close) close.disabled = creating;
  });

  // Not while the key is being created: the request would finish with nowhere to show the key.
  const onOpenChange = (next: boolean) => {
    if (!next && creating) return;
    setOpen(next);
  };
  // While creating, and on the one-time reveal, only the buttons close it: not Escape, not a press outside.
  const keepOpen = (event: Event) => {
    if (creating || created) event.preventDefault();
  };

  const onSubmit = form.handleSubmit(async (values) => {
    const permissions: ApiKeyPermissionId[] = [...(values.api ? (['api'] as const) : []), ...(values.admin ? (['admin'] as const) : [])];
    const started = opening.current;
    try {
      const result = await create.mutateAsync({
        name: values.name,
        environment: values.environment,
        permissions,
        expiresInDays: values.expiry === 'never' ? null : Number(values.expiry),
      });
      if (opening.current !== started) {
        toast.error(
          `API key "${result.apiKey.name}" was created, but the dialog was closed before it could be shown. Revoke it and create a new one if you need it.`,
        );
        return;
      }
      setCreated(result.key);
      toast.success(`API key "${result.apiKey.name}" created`);
    } catch (error) {
      toastFailure(error, 'Could not create the key. Please try again.');
    }
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>
          <Plus className="size-4" aria-hidden="true" /> {triggerLabel}
        </Button>
      </DialogTrigger>
      <DialogContent ref={content} onEscapeKeyDown={keepOpen} onInteractOutside={keepOpen}>
        {created ? (
          <>
            <DialogHeader>
              <DialogTitle>Your new API key</DialogTitle>
              <DialogDescription>Use it as a Bearer token on requests to /v1.</DialogDescription>
            </DialogHeader>
            <NewKeyReveal apiKey={created} />
            <div className="mt-6 flex justify-end">
              <Button onClick={() => onOpenChange(false)}>Done</Button>
            </div>
          </>
        ) : (
          <form onSubmit={onSubmit} noValidate className="space-y-5">
            <DialogHeader>
              <DialogTitle>Create API Key</DialogTitle>
              <DialogDescription>
                Keys authenticate your applications. Test keys are served by the sandbox and use no quota.
              </DialogDescription>
            </DialogHeader>
            <Field id="key-name" label="Key name" error={errors.name?.message}>
              <Input
                {...fieldAria('key-name', errors.name?.message)}
                placeholder="e.g. Production backend"
                autoComplete="off"
                {...form.register('name')}
              />
            </Field>
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium">Environment</legend>
              <div className="grid gap-2 sm:grid-cols-2">
                {(
                  [
                    ['live', 'Live', 'cc_live_sk_…  real providers, counts towards quota'],
                    ['test', 'Test', 'cc_test_sk_…  sandbox answers, no quota'],
                  ] as const
                ).map(([value, label, hint]) => (
                  <label
                    key={value}
                    className="flex cursor-pointer items-start gap-2 rounded-md border border-border p-3 text-sm has-[:checked]:border-primary has-[:checked]:bg-accent has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60"
                  >
                    <input
                      type="radio"
                      value={value}
                      className="mt-0.5 accent-[var(--primary)]"
                      disabled={testOnly && value === 'live'}
                      aria-describedby={testOnly && value === 'live' ? 'key-environment-demo' : undefined}
                      {...form.register('environment')}
                    />
                    <span>
                      <span className="font-medium">{label}</span>
                      <span className="block text-xs text-muted-foreground">{hint}</span>
                    </span>
                  </label>
                ))}
              </div>
              {testOnly && (
                <p id="key-environment-demo" className="text-xs text-muted-foreground">
                  {DEMO_ACCOUNT_REFUSALS.liveApiKey}
                </p>
              )}
            </fieldset>
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium">Permissions</legend>
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" className="size-4 accent-[var(--primary)]" {...form.register('api')} /> API Access
              </label>
              <label className="flex items-center gap-2 text-sm">
                <input type="checkbox" className="size-4 accent-[var(--primary)]" {...form.register('admin')} /> Admin Access
              </label>
              {errors.api?.message && (
                <p role="alert" className="text-sm text-danger">
                  {errors.api.message}
                </p>
              )}
            </fieldset>
            <Field id="key-expiry" label="Expires">
              <Select id="key-expiry" className="w-full" {...form.register('expiry')}>
                {['never', ...API_KEY_EXPIRY_DAYS.map(String)].map((value) => (
                  <option key={value} value={value}>
                    {EXPIRY_LABELS[value]}
                  </option>
                ))}
              </Select>
            </Field>
            <DialogFooter>
              <Button variant="secondary" disabled={creating} onClick={() => onOpenChange(false)}>
                Cancel
              </Button>
              <Button type="submit" disabled={creating}>
                {creating ? 'Creating...' : 'Create key'}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
