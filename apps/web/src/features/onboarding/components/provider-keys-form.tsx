import { MESSAGES, PROVIDER_IDS, PROVIDER_NAMES, type ProviderId } from '@conductor/shared';
import {
  AT_LEAST_ONE_PROVIDER_KEY,
  PROVIDER_KEY_RULES,
  type ProviderKeysForm as ProviderKeysValues,
} from '@conductor/shared/schemas/onboarding';
import { zodResolver } from '@hookform/resolvers/zod';
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

/** Blank is fine; anything typed must match the provider's rule (the spec's message). */
const keyField = (provider: ProviderId) =>
  z.string().refine((value) => value.trim() === '' || PROVIDER_KEY_RULES[provider].safeParse(value).success, {
    message: MESSAGES.providerKeys[provider],
  });
const FormSchema = z.object({
  openai: keyField('openai'),
  anthropic: keyField('anthropic'),
  google: keyField('google'),
  azure: keyField('azure'),
  mistral: keyField('mistral'),
  cohere: keyField('cohere'),
});

const EMPTY: ProviderKeysValues = { openai: '', anthropic: '', google: '', azure: '', mistral: '', cohere: '' };

/** Step 2 (bring your own keys): six optional keys, each checked by the spec's rule. */
export function ProviderKeysForm({ onSaved, onBack }: { onSaved: () => void; onBack: () => void }) {
  const save = useSaveOnboardingKeys();
  const form = useForm<ProviderKeysValues>({ resolver: zodResolver(FormSchema), defaultValues: EMPTY });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    const keys = Object.fromEntries(
      PROVIDER_IDS.flatMap((provider) => (values[provider]?.trim() ? [[provider, values[provider].trim()]] : [])),
    );
    if (Object.keys(keys).length === 0) {
      form.setError('root', { message: AT_LEAST_ONE_PROVIDER_KEY });
      return;
    }
    try {
      await save.mutateAsync(keys);
      toast.success(MESSAGES.onboarding.keysSaved);
      onSaved();
    } catch (error) {
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
          return (
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
        })}
      </div>
      {errors.root?.message && (
        <p role="alert" className="text-sm text-danger">
          {errors.root.message}
        </p>
      )}
      <div className="flex flex-wrap justify-between gap-2">
        <Button variant="secondary" onClick={onBack}>
          Back
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save Keys'}
        </Button>
      </div>
    </form>
  );
}
