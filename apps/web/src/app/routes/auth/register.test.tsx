import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import Register from './register';

vi.mock('~/features/auth/hooks/use-redirect-if-signed-in', () => ({ useRedirectIfSignedIn: () => undefined }));
vi.mock('~/features/auth/components/sso-providers', () => ({ SsoProviders: () => <p>Single sign-on providers</p> }));

describe('register page', () => {
  it('keeps what was typed in the e-mail form across a visit to the SSO/OIDC tab', async () => {
    const events = userEvent.setup();
    render(
      <MemoryRouter>
        <Register />
      </MemoryRouter>,
    );
    await events.type(screen.getByLabelText('Full name'), 'Ada Lovelace');
    await events.type(screen.getByLabelText('Email'), 'ada@example.com');

    await events.click(screen.getByRole('tab', { name: 'SSO/OIDC' }));
    expect(await screen.findByText('Single sign-on providers')).toBeVisible();
    expect(screen.queryByRole('tabpanel', { name: 'Email Signup' })).toBeNull();

    await events.click(screen.getByRole('tab', { name: 'Email Signup' }));
    expect(screen.getByLabelText('Full name')).toHaveValue('Ada Lovelace');
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
  });
});
