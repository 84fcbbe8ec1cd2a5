import { SUPPORT } from '@conductor/shared/constants/limits';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Button } from '~/components/ui/button';
import { ApiError, publicApi } from '~/lib/api-client';
import { loadMessages } from '~/lib/messages';

type State = { kind: 'idle' } | { kind: 'loading' } | { kind: 'success'; message: string } | { kind: 'error'; message: string };

/** The footer's 'Stay updated' box: subscribes through the waitlist API with its own source. */
export function SubscribeForm() {
  const [email, setEmail] = useState('');
  const [state, setState] = useState<State>({ kind: 'idle' });
  const id = useId();

  // Set before anything is awaited: a second submit while the schema loads must not send twice.
  const busy = useRef(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (busy.current) return;
    busy.current = true;
    try {
      if (!(await import('@conductor/shared/schemas/waitlist')).WaitlistAddress.safeParse(email).success) {
        setState({ kind: 'error', message: (await loadMessages()).waitlist.invalidEmail });
        return;
      }
      setState({ kind: 'loading' });
      const response = await publicApi.post<{ message: string }>('/waitlist', { email: email.trim(), source: 'footer' });
      setState({ kind: 'success', message: response.message });
      setEmail('');
    } catch (error) {
      const { waitlistFailureMessage } = await import('@conductor/shared/constants/waitlist');
      setState({ kind: 'error', message: waitlistFailureMessage(error instanceof ApiError ? error.status : 0, SUPPORT.email, 'footer') });
    } finally {
      busy.current = false;
    }
  }

  return (
    <form className="mt-3" onSubmit={onSubmit} noValidate aria-label="Subscribe to updates">
      <div className="flex gap-2">
        <label htmlFor={id} className="sr-only">
          Email address
        </label>
        <input
          id={id}
          type="email"
          required
          autoComplete="email"
          placeholder="you@company.com"
          value={email}
          onChange={(event) => {
            setEmail(event.target.value);
            if (state.kind === 'error') setState({ kind: 'idle' });
          }}
          aria-invalid={state.kind === 'error'}
          className="h-10 w-full min-w-0 rounded-md border border-input bg-background px-3 text-sm placeholder:text-muted-foreground"
          aria-describedby={`${id}-status`}
        />
        <Button type="submit" disabled={state.kind === 'loading'}>
          {state.kind === 'loading' ? 'Subscribing...' : 'Subscribe'}
        </Button>
      </div>
      <p id={`${id}-status`} role="status" className="mt-2 min-h-5 text-sm">
        {state.kind === 'success' && <span className="text-success">{state.message}</span>}
        {state.kind === 'error' && <span className="text-danger">{state.message}</span>}
      </p>
    </form>
  );
}
