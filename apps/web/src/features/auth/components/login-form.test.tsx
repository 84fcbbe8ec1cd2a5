import { MESSAGES } from '@conductor/shared';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '~/lib/api-client';
import { toast } from '~/lib/toast';
import { login } from '../api/login';
import { LoginForm } from './login-form';

vi.mock('../api/login', () => ({ login: vi.fn() }));
vi.mock('~/lib/public-query', () => ({
  usePublicQuery: () => ({ data: { providers: [], demoAccount: false }, error: null, isPending: false, isError: false }),
}));
vi.mock('~/lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

async function signInFailing(error: unknown) {
  vi.mocked(login).mockRejectedValue(error);
  const events = userEvent.setup();
  render(
    <MemoryRouter>
      <LoginForm />
    </MemoryRouter>,
  );
  await events.type(screen.getByLabelText('Email'), 'ada@example.com');
  await events.type(screen.getByLabelText('Password'), 'Wrong-Passw0rd');
  await events.click(screen.getByRole('button', { name: 'Sign In' }));
  await waitFor(() => expect(login).toHaveBeenCalled());
}

describe('login form failures', () => {
  beforeEach(() => {
    vi.mocked(login).mockReset();
    vi.mocked(toast.error).mockReset();
  });

  it('wrong credentials: the spec’s message, and the password field is focused for another try', async () => {
    await signInFailing(new ApiError(401, 'unauthorized', 'Invalid credentials'));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(MESSAGES.login.failure));
    expect(screen.getByLabelText('Password')).toHaveFocus();
  });

  it('a time-out says so instead of blaming the credentials', async () => {
    await signInFailing(new ApiError(0, 'timeout', 'The request timed out. Please try again.'));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('The request timed out. Please try again.'));
    expect(screen.getByLabelText('Password')).toHaveFocus();
  });

  it('a network failure says the server could not be reached', async () => {
    await signInFailing(new ApiError(0, 'network', 'Failed to fetch'));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith('Could not reach Conductor. Check your connection and try again.'));
    expect(toast.error).not.toHaveBeenCalledWith(MESSAGES.login.failure);
  });

  it('a server error the client already announced gets no second toast, and the password is ready again', async () => {
    await signInFailing(new ApiError(503, 'unavailable', 'Server error. Please try again later.', undefined, true));
    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveFocus());
    expect(toast.error).not.toHaveBeenCalled();
  });
});
