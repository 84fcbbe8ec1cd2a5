import type { WaitlistSource } from '@conductor/shared/schemas/waitlist';
import { useRef, useState } from 'react';
import { loadMessages } from '~/lib/messages';
import { joinWaitlist } from '../api/waitlist';

export type WaitlistState =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'success'; message: string }
  | { kind: 'error'; message: string };

/** The waitlist form's state machine: idle, loading, then success (input cleared) or error. */
export function useWaitlistSignup(source: WaitlistSource) {
  const [email, setEmail] = useState('');
  const [state, setState] = useState<WaitlistState>({ kind: 'idle' });

  // Set before anything is awaited: a second click while the schema loads must not send twice
  // (the second answer, a 409, would replace the first one's success).
  const busy = useRef(false);

  async function submit() {
    if (busy.current) return;
    busy.current = true;
    try {
      // The schema (and zod) loads on first submit, keeping it out of the landing page's bundle.
      const { WaitlistAddress } = await import('@conductor/shared/schemas/waitlist');
      if (!WaitlistAddress.safeParse(email).success) {
        setState({ kind: 'error', message: (await loadMessages()).waitlist.invalidEmail });
        return;
      }
      setState({ kind: 'loading' });
      const message = await joinWaitlist(email.trim(), source);
      setState({ kind: 'success', message });
      setEmail('');
    } catch (error) {
      setState({ kind: 'error', message: (error as Error).message });
    } finally {
      busy.current = false;
    }
  }

  return {
    email,
    state,
    submit,
    setEmail(value: string) {
      setEmail(value);
      if (state.kind === 'error') setState({ kind: 'idle' });
    },
  };
}
