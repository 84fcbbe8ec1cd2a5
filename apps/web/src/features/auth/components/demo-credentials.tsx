import { DEMO_CREDENTIALS } from '@conductor/shared';
import { Sparkles } from 'lucide-react';
import { Button } from '~/components/ui/button';

/** The login page's demo-credentials box: the seeded demo account's pair, one click to fill the form. */
export function DemoCredentials({ onUse }: { onUse: (credentials: { email: string; password: string }) => void }) {
  return (
    <section aria-labelledby="demo-account-title" className="rounded-lg border border-primary/25 bg-accent/60 p-4 text-sm">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h2 id="demo-account-title" className="flex items-center gap-1.5 font-medium text-accent-foreground">
            <Sparkles className="size-4" aria-hidden="true" /> Demo account
          </h2>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-muted-foreground">
            <dt>Email</dt>
            <dd className="font-mono break-all text-foreground">{DEMO_CREDENTIALS.email}</dd>
            <dt>Password</dt>
            <dd className="font-mono text-foreground">{DEMO_CREDENTIALS.password}</dd>
          </dl>
        </div>
        <Button
          variant="secondary"
          size="sm"
          className="self-start"
          onClick={() => onUse({ email: DEMO_CREDENTIALS.email, password: DEMO_CREDENTIALS.password })}
        >
          Use demo
        </Button>
      </div>
    </section>
  );
}
