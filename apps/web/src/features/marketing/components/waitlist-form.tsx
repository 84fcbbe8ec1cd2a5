import { ArrowRight, CheckCircle2, Loader2 } from 'lucide-react';
import { type FormEvent, useId } from 'react';
import { Link } from 'react-router';
import { Button } from '~/components/ui/button';
import { cn } from '~/lib/cn';
import { useWaitlistSignup } from '../hooks/use-waitlist-signup';

/** The coming-soon page's waitlist form (source `coming_soon_page`). */
export function WaitlistForm() {
  const { email, setEmail, state, submit } = useWaitlistSignup('coming_soon_page');
  const id = useId();
  const statusId = `${id}-status`;

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void submit();
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Join the waitlist" className="mx-auto w-full max-w-md">
      <div className="flex flex-col gap-2 sm:flex-row">
        <label htmlFor={id} className="sr-only">
          Work email
        </label>
        <input
          id={id}
          name="email"
          type="email"
          required
          autoComplete="email"
          inputMode="email"
          placeholder="you@company.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={state.kind === 'error'}
          aria-describedby={statusId}
          className={cn(
            'h-12 w-full min-w-0 rounded-md border bg-background px-4 text-base shadow-sm placeholder:text-muted-foreground',
            state.kind === 'error' ? 'border-danger' : 'border-input',
          )}
        />
        <Button type="submit" size="lg" disabled={state.kind === 'loading'} aria-busy={state.kind === 'loading'}>
          {state.kind === 'loading' ? (
            <>
              <Loader2 className="size-4 animate-spin" aria-hidden="true" />
              Joining...
            </>
          ) : (
            <>
              Join the waitlist
              <ArrowRight className="size-4" aria-hidden="true" />
            </>
          )}
        </Button>
      </div>
      <div id={statusId} role="status" aria-live="polite" className="mt-3 min-h-6 text-sm">
        {state.kind === 'success' && (
          <p className="flex flex-wrap items-center justify-center gap-x-2 gap-y-1 text-success">
            <CheckCircle2 className="size-4 shrink-0" aria-hidden="true" />
            <span>{state.message}</span>
            <Link to="/portal" className="font-medium text-primary underline underline-offset-4">
              Open the developer portal
            </Link>
          </p>
        )}
        {state.kind === 'error' && <p className="text-danger">{state.message}</p>}
      </div>
    </form>
  );
}
