import type { OnboardingMode } from '@conductor/shared/schemas/onboarding';
import { CheckCircle2 } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { toast } from '~/lib/toast';
import { Button } from '~/components/ui/button';
import { planLabel, useAuth } from '~/lib/auth';
import { useCompleteOnboarding } from '../api/onboarding';
import { KeysSummary } from './keys-summary';
import { ModeChoice } from './mode-choice';
import { ProviderKeysForm } from './provider-keys-form';

const TITLES: Record<string, string> = {
  choose: 'Choose how Conductor reaches the model providers',
  'hosted-done': 'You are all set',
  'byo-keys': 'Add your provider keys',
  'byo-summary': 'Your keys are configured',
};

/** Hosted: 2 steps. Bring your own keys: 3 steps (choose, keys, summary). Back returns to step 1. */
export function OnboardingWizard() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const [mode, setMode] = useState<OnboardingMode | null>(null);
  const [step, setStep] = useState(1);
  const complete = useCompleteOnboarding();
  const total = mode === 'byo-keys' ? 3 : 2;
  const view = step === 1 ? 'choose' : mode === 'hosted' ? 'hosted-done' : step === 2 ? 'byo-keys' : 'byo-summary';
  const back = () => setStep(1);

  const finish = async (finishedMode: OnboardingMode) => {
    try {
      await complete.mutateAsync(finishedMode);
      navigate('/dashboard');
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Could not finish onboarding. Please try again.');
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
        <h2 className="mt-4 text-lg font-semibold">{TITLES[view]}</h2>
      </div>

      {view === 'choose' && (
        <ModeChoice
          onChoose={(chosen) => {
            setMode(chosen);
            setStep(2);
          }}
        />
      )}

      {view === 'hosted-done' && (
        <div className="space-y-5">
          <div className="flex items-start gap-3 rounded-lg border border-border p-4">
            <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-success" aria-hidden="true" />
            <p className="text-sm">
              Conductor routes your requests with its own provider keys. You are on the{' '}
              <strong>{user ? planLabel(user.plan) : 'Free'}</strong> plan; create an API key on the dashboard and call{' '}
              <code className="font-mono">/v1/chat/completions</code>.
            </p>
          </div>
          <div className="flex flex-wrap justify-between gap-2">
            <Button variant="secondary" onClick={back}>
              Back
            </Button>
            {goToDashboard('hosted')}
          </div>
        </div>
      )}

      {view === 'byo-keys' && <ProviderKeysForm onSaved={() => setStep(3)} onBack={back} />}

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
