import { CheckCircle2 } from 'lucide-react';

/** The register page's benefits (spec section 2, Register). */
export const REGISTER_BENEFITS = [
  { title: 'Free 14-day trial', detail: 'No credit card required.' },
  { title: '10,000 tokens in the free plan', detail: 'Every month, free forever.' },
  { title: '6 LLM providers', detail: 'OpenAI, Anthropic, Google, Azure, Mistral and Cohere behind one API.' },
  { title: 'Monitoring dashboard', detail: 'Usage, latency and cost for every request.' },
] as const;

export function BenefitsList() {
  return (
    <ul className="space-y-4" aria-label="What you get">
      {REGISTER_BENEFITS.map((benefit) => (
        <li key={benefit.title} className="flex gap-3">
          <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-success" aria-hidden="true" />
          <div>
            <p className="text-sm font-medium">{benefit.title}</p>
            <p className="text-sm text-muted-foreground">{benefit.detail}</p>
          </div>
        </li>
      ))}
    </ul>
  );
}
