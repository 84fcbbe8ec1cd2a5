import { MESSAGES } from '@conductor/shared';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '~/lib/api-client';
import { toast } from '~/lib/toast';
import { register } from '../api/register';
import { RegisterForm } from './register-form';

vi.mock('../api/register', () => ({ register: vi.fn() }));
vi.mock('~/lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

async function registerFailing(error: unknown) {
  vi.mocked(register).mockRejectedValue(error);
  const events = userEvent.setup();
  render(
    <MemoryRouter>
      <RegisterForm />
    </MemoryRouter>,
  );
  await events.type(screen.getByLabelText('Full name'), 'Ada Lovelace');
  await events.type(screen.getByLabelText('Email'), 'ada@example.com');
  await events.type(screen.getByLabelText('Password'), 'Analytical1');
  await events.type(screen.getByLabelText('Confirm password'), 'Analytical1');
  await events.click(screen.getByRole('checkbox'));
  await events.click(screen.getByRole('button', { name: 'Create Account' }));
  await waitFor(() => expect(register).toHaveBeenCalled());
}

describe('register form failures', () => {
  beforeEach(() => {
    vi.mocked(register).mockReset();
    vi.mocked(toast.error).mockReset();
  });

  it('a network failure says the server could not be reached', async () => {
    await registerFailing(new ApiError(0, 'network', 'Failed to fetch'));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(MESSAGES.register.failure, {
        description: 'Could not reach Conductor. Check your connection and try again.',
      }),
    );
  });

  it('a time-out says so', async () => {
    await registerFailing(new ApiError(0, 'timeout', 'The request timed out. Please try again.'));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(MESSAGES.register.failure, { description: 'The request timed out. Please try again.' }),
    );
  });

  it('a refusal without a field shows the server’s reason', async () => {
    await registerFailing(new ApiError(429, 'rate_limited', 'Too many sign-ups from this address. Try again in 10 minutes.'));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(MESSAGES.register.failure, {
        description: 'Too many sign-ups from this address. Try again in 10 minutes.',
      }),
    );
  });
});
