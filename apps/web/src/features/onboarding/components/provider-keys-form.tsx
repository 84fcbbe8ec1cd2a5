import { MESSAGES, PROVIDER_IDS, PROVIDER_NAMES, type ProviderId } from '@conductor/shared';
import {
  AZURE_ENDPOINT_NEEDS_KEY,
  AZURE_ENDPOINT_REFUSED,
  AzureEndpoint,
  azureEndpointWithoutKey,
  PROVIDER_KEY_RULES,
  type ProviderKeysForm as ProviderKeysValues,
} from '@conductor/shared/schemas/onboarding';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from '~/lib/toast';
import { z } from 'zod';
import { Button } from '~/components/ui/button';
import { Field, fieldAria } from '~/components/ui/field';
import { Input } from '~/components/ui/input';
import { ApiError } from '~/lib/api-client';
import { useSaveOnboardingKeys } from '../api/onboarding';

const PLACEHOLDERS: Record<ProviderId, string> = {
  openai: 'sk-...',
  anthropic: 'sk-ant-...',
  google: 'AIza...',
  azure: 'Azure OpenAI key',
  mistral: 'Mistral key',
  cohere: 'Cohere key',
};

/**
 * Blank is fine; anything typed must match the provider's rule, with the rule's own message (the
 * spec's for a malformed key; "without spaces" for a long enough key with a space, as Settings says).
 */
const keyField = (provider: ProviderId) =>
  z.string().superRefine((value, context) => {
    if (value.trim() === '') return;
    const parsed = PROVIDER_KEY_RULES[provider].safeParse(value);
    if (!parsed.success) context.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? MESSAGES.providerKeys[provider] });
  });
/** Blank is fine (the server's Azure resource); anything typed is checked by Settings' rule (the server checks the host). */
const endpointField = z.string().superRefine((value, context) => {
  const parsed = AzureEndpoint.safeParse(value);
  if (!parsed.success) context.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? AZURE_ENDPOINT_REFUSED });
});
const FormSchema = z
  .object({
    openai: keyField('openai'),
    anthropic: keyField('anthropic'),
    google: keyField('google'),
    azure: keyField('azure'),
    mistral: keyField('mistral'),
    cohere: keyField('cohere'),
    azureEndpoint: endpointField,
  })
  .refine((values) => !azureEndpointWithoutKey(values), { message: AZURE_ENDPOINT_NEEDS_KEY, path: ['azureEndpoint'] });

export const EMPTY_PROVIDER_KEYS: ProviderKeysValues = {
  openai: '',
  anthropic: '',
  google: '',
  azure: '',
  mistral: '',
  cohere: '',
  azureEndpoint: '',
};
/** The form's fields the server may name in a 400. */
const FIELDS = [...PROVIDER_IDS, 'azureEndpoint'] as const;
const ENDPOINT_ID = 'key-azure-endpoint';

/**
 * Step 2 (bring your own keys): six optional keys, each checked by the spec's rule, and the Azure key's resource URL.
 * Back unmounts the form: the wizard keeps what was typed (`defaultValues`, `onValuesChange`) for the next visit.
 */
export function ProviderKeysForm({
  defaultValues = EMPTY_PROVIDER_KEYS,
  onValuesChange,
  onSaved,
  onBack,
}: {
  defaultValues?: ProviderKeysValues;
  onValuesChange?: (values: ProviderKeysValues) => void;
  onSaved: () => void;
  onBack: () => void;
}) {
  const save = useSaveOnboardingKeys();
  const form = useForm<ProviderKeysValues>({ resolver: zodResolver(FormSchema), defaultValues });
  const { errors } = form.formState;
  useEffect(() => {
    if (!onValuesChange) return;
    const subscription = form.watch(() => onValuesChange(form.getValues()));
    return () => subscription.unsubscribe();
  }, [form, onValuesChange]);

  const onSubmit = form.handleSubmit(async (values) => {
    const keys = Object.fromEntries(
      PROVIDER_IDS.flatMap((provider) => (values[provider]?.trim() ? [[provider, values[provider].trim()]] : [])),
    );
    const azureEndpoint = values.azureEndpoint.trim();
    try {
      await save.mutateAsync({ ...keys, ...(azureEndpoint ? { azureEndpoint } : {}) });
      toast.success(MESSAGES.onboarding.keysSaved);
      onSaved();
    } catch (error) {
      // A 400 on a field (the resource URL is not an Azure resource) is shown on that field.
      const refused = error instanceof ApiError && error.status === 400 ? FIELDS.filter((field) => error.fields?.[field]) : [];
      if (error instanceof ApiError && refused.length > 0) {
        for (const [index, field] of refused.entries())
          form.setError(field, { message: error.fields?.[field] ?? MESSAGES.onboarding.keysFailed }, { shouldFocus: index === 0 });
        return;
      }
      // An ended session was announced (signed out, 'Session expired'); any other failure gets the spec's own toast.
      if (error instanceof ApiError && error.status === 401 && error.announced) return;
      // A 409 says why keys cannot be saved here (onboarding finished, or a paid plan) and where to go instead.
      toast.error(error instanceof ApiError && error.status === 409 ? error.message : MESSAGES.onboarding.keysFailed);
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <p className="text-sm text-muted-foreground">
        All keys are optional; add the providers you use. Keys are encrypted (AES-256-GCM) and only ever shown masked.
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        {PROVIDER_IDS.map((provider) => {
          const id = `key-${provider}`;
          const error = errors[provider]?.message;
          const field = (
            <Field key={provider} id={id} label={`${PROVIDER_NAMES[provider]} API Key`} error={error}>
              <Input
                {...fieldAria(id, error)}
                type="password"
                autoComplete="off"
                spellCheck={false}
                placeholder={PLACEHOLDERS[provider]}
                {...form.register(provider)}
              />
            </Field>
          );
          if (provider !== 'azure') return field;
          // An Azure key belongs to one resource: its URL follows the key, across the whole row on
          // wide screens (in the Azure column it would leave a gap under the Google key).
          const endpointError = errors.azureEndpoint?.message;
          return [
            field,
            <div key="azure-endpoint" className="sm:col-span-2">
              <Field
                id={ENDPOINT_ID}
                label="Azure resource URL"
                hint="Where your Azure key is sent. Leave it empty to use this server's Azure resource."
                error={endpointError}
              >
                <Input
                  {...fieldAria(ENDPOINT_ID, endpointError, true)}
                  type="url"
                  inputMode="url"
                  autoComplete="off"
                  autoCapitalize="none"
                  spellCheck={false}
                  placeholder="https://your-resource.openai.azure.com"
                  {...form.register('azureEndpoint')}
                />
              </Field>
            </div>,
          ];
        })}
      </div>
      {errors.root?.message && (
        <p role="alert" className="text-sm text-danger">
          {errors.root.message}
        </p>
      )}
      <div className="flex flex-wrap justify-between gap-2">
        {/* Not while saving: the save would finish on a step the user has left. */}
        <Button variant="secondary" onClick={onBack} disabled={save.isPending}>
          Back
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save Keys'}
        </Button>
      </div>
    </form>
  );
}
