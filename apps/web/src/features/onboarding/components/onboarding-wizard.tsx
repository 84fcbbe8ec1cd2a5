import type { PublicUser } from '@conductor/shared';
import type { OnboardingMode, ProviderKeysForm as ProviderKeysValues } from '@conductor/shared/schemas/onboarding';
import { CheckCircle2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { toastFailure } from '~/lib/toast-failure';
import { Button } from '~/components/ui/button';
import { signInDestination } from '~/lib/next-path';
import { planLabel, useAuth } from '~/lib/auth';
import { useCompleteOnboarding } from '../api/onboarding';
import { KeysSummary } from './keys-summary';
import { ModeChoice } from './mode-choice';
import { EMPTY_PROVIDER_KEYS, ProviderKeysForm } from './provider-keys-form';
import { SavedKeys } from './saved-keys';

const TITLES: Record<string, string> = {
  choose: 'Choose how Conductor reaches the model providers',
  'hosted-done': 'You are all set',
  'byo-keys': 'Add your provider keys',
  'byo-summary': 'Your keys are configured',
  'byo-summary-empty': 'No provider keys yet',
};

/**
 * Finishing with Hosted undoes a keys save made earlier in the wizard (the server removes those keys,
 * and byo-keys, only ever reached from free here, goes back to free): the hosted view shows that plan.
 */
const hostedPlan = (plan: PublicUser['plan']): PublicUser['plan'] => (plan === 'byo-keys' ? 'free' : plan);

/** Hosted: 2 steps. Bring your own keys: 3 steps (choose, keys, summary). Back returns to step 1. */
export function OnboardingWizard() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const [{ mode, step }, setPosition] = useState<{ mode: OnboardingMode | null; step: number }>({ mode: null, step: 1 });
  // What was typed in step 2: Back unmounts the form, and a return must not find it empty.
  const [draftKeys, setDraftKeys] = useState<ProviderKeysValues>(EMPTY_PROVIDER_KEYS);
  const complete = useCompleteOnboarding();
  const total = mode === 'byo-keys' ? 3 : 2;
  const view = step === 1 ? 'choose' : mode === 'hosted' ? 'hosted-done' : step === 2 ? 'byo-keys' : 'byo-summary';
  const back = () => setPosition((position) => ({ ...position, step: 1 }));
  // Only from the keys step: a save that ends after the user left it (Back, then Hosted) must not move the wizard on.
  const toSummary = () =>
    setPosition((position) => (position.step === 2 && position.mode === 'byo-keys' ? { ...position, step: 3 } : position));
  const savedKeys = user?.plan === 'byo-keys' && user.apiKeys.length > 0;

  // The button that changed the step is gone: keyboard and screen-reader users continue from the new step's heading.
  const heading = useRef<HTMLHeadingElement>(null);
  const shownView = useRef(view);
  useEffect(() => {
    if (shownView.current === view) return;
    shownView.current = view;
    heading.current?.focus();
  }, [view]);

  const finish = async (finishedMode: OnboardingMode) => {
    try {
      await complete.mutateAsync(finishedMode);
      // Replace: Back must not return to a finished wizard. To the dashboard, or the page the
      // visitor signed up for (`?next=`: a plan chosen on the pricing page opens Billing's plan change).
      navigate(signInDestination(window.location.search), { replace: true });
    } catch (error) {
      toastFailure(error, 'Could not finish onboarding. Please try again.');
    }
  };

  const goToDashboard = (finishedMode: OnboardingMode) => (
    <Button onClick={() => finish(finishedMode)} disabled={complete.isPending}>
      {complete.isPending ? 'Finishing...' : 'Go to Dashboard'}
    </Button>
  );

  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm font-medium text-primary" data-testid="onboarding-step">
          Step {step} of {total}
        </p>
        <div className="mt-2 flex gap-1.5" aria-hidden="true">
          {Array.from({ length: total }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed step markers
            <span key={index} className={`h-1.5 flex-1 rounded-full ${index < step ? 'bg-primary' : 'bg-muted'}`} />
          ))}
        </div>
        <h2 ref={heading} tabIndex={-1} className="mt-4 text-lg font-semibold outline-none">
          {TITLES[view === 'byo-summary' && (user?.apiKeys.length ?? 0) === 0 ? 'byo-summary-empty' : view]}
        </h2>
      </div>

      {view === 'choose' && <ModeChoice onChoose={(chosen) => setPosition({ mode: chosen, step: 2 })} />}

      {view === 'hosted-done' && (
        <div className="space-y-5">
          <div className="flex items-start gap-3 rounded-lg border border-border p-4">
            <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-success" aria-hidden="true" />
            <p className="text-sm">
              Conductor routes your requests with its own provider keys. You are on the{' '}
              <strong>{user ? planLabel(hostedPlan(user.plan)) : 'Free'}</strong> plan; create an API key on the dashboard and call{' '}
              <code className="font-mono">/v1/chat/completions</code>.
            </p>
          </div>
          {savedKeys && (
            <p className="text-sm text-muted-foreground">
              Finishing with Hosted Service removes the provider keys you saved a moment ago. You can add keys later in Settings.
            </p>
          )}
          <div className="flex flex-wrap justify-between gap-2">
            <Button variant="secondary" onClick={back}>
              Back
            </Button>
            {goToDashboard('hosted')}
          </div>
        </div>
      )}

      {view === 'byo-keys' && (
        <div className="space-y-5">
          {savedKeys && user && <SavedKeys keys={user.apiKeys} onContinue={toSummary} />}
          <ProviderKeysForm defaultValues={draftKeys} onValuesChange={setDraftKeys} onSaved={toSummary} onBack={back} />
        </div>
      )}

      {view === 'byo-summary' && (
        <div className="space-y-5">
          <KeysSummary keys={user?.apiKeys ?? []} />
          <p className="text-sm text-muted-foreground">
            You are on the Bring Your Own Keys plan. You can add, replace or remove keys later in Settings.
          </p>
          <div className="flex flex-wrap justify-between gap-2">
            <Button variant="secondary" onClick={back}>
              Back
            </Button>
            {goToDashboard('byo-keys')}
          </div>
        </div>
      )}
    </div>
  );
}
