import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { joinWaitlist } from '../api/waitlist';
import { useWaitlistSignup } from './use-waitlist-signup';

vi.mock('../api/waitlist', () => ({ joinWaitlist: vi.fn() }));

describe('waitlist sign-up', () => {
  it('sends once when submitted twice before the first answer (a double click while the schema loads)', async () => {
    vi.mocked(joinWaitlist).mockResolvedValue("You're on the list!");
    const { result } = renderHook(() => useWaitlistSignup('coming_soon_page'));
    act(() => result.current.setEmail('ada@example.com'));
    await act(async () => {
      await Promise.all([result.current.submit(), result.current.submit()]);
    });
    expect(joinWaitlist).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(result.current.state).toEqual({ kind: 'success', message: "You're on the list!" }));
  });
});
