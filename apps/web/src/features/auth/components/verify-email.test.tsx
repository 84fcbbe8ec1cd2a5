import { AUTH_COPY, VERIFY_EMAIL_OTHER_ACCOUNT } from '@conductor/shared/schemas/auth-copy';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '~/lib/api-client';
import { confirmEmail } from '../api/email-verification';
import { VerifyEmail } from './verify-email';

vi.mock('../api/email-verification', () => ({ confirmEmail: vi.fn(), rememberPendingConfirmation: vi.fn() }));
vi.mock('~/lib/auth', () => ({ loadSession: vi.fn(async () => undefined) }));

function open(error: unknown) {
  vi.mocked(confirmEmail).mockImplementation(() => Promise.reject(error));
  render(
    <MemoryRouter>
      <VerifyEmail token="user.9999999999.signature" />
    </MemoryRouter>,
  );
}

describe('the confirmation page', () => {
  it('a link for another account says to sign out and open it again, not that it expired', async () => {
    open(new ApiError(403, VERIFY_EMAIL_OTHER_ACCOUNT, 'whatever the server said'));
    expect(await screen.findByRole('alert')).toHaveTextContent(AUTH_COPY.verifyEmailOtherAccount);
    expect(AUTH_COPY.verifyEmailOtherAccount).toBe('This link is for another account. Sign out, then open it again.');
  });

  it('a bad or expired link says so', async () => {
    open(new ApiError(400, 'bad_request', AUTH_COPY.verifyEmailInvalid));
    expect(await screen.findByRole('alert')).toHaveTextContent(AUTH_COPY.verifyEmailInvalid);
  });

  it('signed out, it asks to sign in', async () => {
    open(new ApiError(401, 'unauthorized', AUTH_COPY.verifyEmailSignIn));
    expect(await screen.findByText(AUTH_COPY.verifyEmailSignIn)).toHaveRole('status');
  });
});
