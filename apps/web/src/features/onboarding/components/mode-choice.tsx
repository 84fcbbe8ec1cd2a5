import type { OnboardingMode } from '@conductor/shared/schemas/onboarding';
import { ArrowRight, Cloud, KeyRound } from 'lucide-react';

const MODES = [
  {
    mode: 'hosted',
    title: 'Hosted Service',
    icon: Cloud,
    description: 'Use Conductor’s provider keys. Nothing to configure; usage counts towards your plan.',
  },
  {
    mode: 'byo-keys',
    title: 'Bring Your Own Keys',
    icon: KeyRound,
    description: 'Use your own OpenAI, Anthropic, Google, Azure, Mistral or Cohere keys. No token quota; providers bill you.',
  },
] as const;

/** Step 1: choosing a mode advances at once. */
export function ModeChoice({ onChoose }: { onChoose: (mode: OnboardingMode) => void }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {MODES.map(({ mode, title, icon: Icon, description }) => (
        <button
          key={mode}
          type="button"
          onClick={() => onChoose(mode)}
          className="group flex flex-col items-start gap-3 rounded-xl border border-border bg-card p-5 text-left transition-colors hover:border-primary focus-visible:outline-2 focus-visible:outline-ring"
        >
          <Icon className="size-6 text-primary" aria-hidden="true" />
          <span className="text-base font-semibold">{title}</span>
          <span className="text-sm text-muted-foreground">{description}</span>
          <span className="mt-auto inline-flex items-center gap-1 text-sm font-medium text-primary">
            Choose <ArrowRight className="size-4 transition-transform group-hover:translate-x-0.5" aria-hidden="true" />
          </span>
        </button>
      ))}
    </div>
  );
}
