import type { PublicUser } from '@conductor/shared';
import { EMAIL_CHANGE_NEEDS_PASSWORD, WRONG_CURRENT_PASSWORD } from '@conductor/shared/schemas/settings';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '~/lib/api-client';
import { ProfileForm } from './profile-form';

const mutateAsync = vi.fn();
vi.mock('../api/settings', () => ({ useUpdateProfile: () => ({ mutateAsync, isPending: false }) }));
vi.mock('~/lib/toast', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const user = (authMethod: PublicUser['authMethod'], hasPassword = authMethod === 'email') =>
  ({ id: 'u1', name: 'Nora Example', email: 'nora@example.org', authMethod, hasPassword }) as PublicUser;

const wrongPassword = () => new ApiError(400, 'validation_failed', WRONG_CURRENT_PASSWORD, { currentPassword: WRONG_CURRENT_PASSWORD });

describe('profile form', () => {
  beforeEach(() => mutateAsync.mockReset().mockResolvedValue(undefined));

  it('asks for the current password only while the e-mail differs from the saved one', async () => {
    const events = userEvent.setup();
    render(<ProfileForm user={user('email')} />);
    await events.clear(screen.getByLabelText('Name'));
    await events.type(screen.getByLabelText('Name'), 'Nora Renamed');
    expect(screen.queryByLabelText('Current password')).toBeNull();

    await events.type(screen.getByLabelText('Email'), 'x');
    const password = screen.getByLabelText('Current password');
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toHaveAttribute('autocomplete', 'current-password');

    await events.type(screen.getByLabelText('Email'), '{Backspace}');
    expect(screen.queryByLabelText('Current password')).toBeNull();
    await events.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(mutateAsync).toHaveBeenCalledWith({ name: 'Nora Renamed', email: 'nora@example.org' });
  });

  it('needs the password before sending, sends it, and shows the server’s answer under it', async () => {
    const events = userEvent.setup();
    render(<ProfileForm user={user('email')} />);
    await events.clear(screen.getByLabelText('Email'));
    await events.type(screen.getByLabelText('Email'), 'new@example.org');
    await events.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(EMAIL_CHANGE_NEEDS_PASSWORD)).toBeInTheDocument();
    expect(mutateAsync).not.toHaveBeenCalled();

    mutateAsync.mockRejectedValueOnce(wrongPassword());
    await events.type(screen.getByLabelText('Current password'), 'Wrong-Passw0rd');
    await events.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(mutateAsync).toHaveBeenCalledWith({ name: 'Nora Example', email: 'new@example.org', currentPassword: 'Wrong-Passw0rd' });
    expect(await screen.findByText(WRONG_CURRENT_PASSWORD)).toBeInTheDocument();
    expect(screen.getByLabelText('Current password')).toHaveAttribute('aria-invalid', 'true');
  });

  it('lets a single sign-on account change its e-mail without one, unless the server asks for it', async () => {
    const events = userEvent.setup();
    render(<ProfileForm user={user('oidc')} />);
    await events.clear(screen.getByLabelText('Email'));
    await events.type(screen.getByLabelText('Email'), 'new@example.org');
    expect(screen.queryByLabelText('Current password')).toBeNull();

    mutateAsync.mockRejectedValueOnce(
      new ApiError(400, 'validation_failed', EMAIL_CHANGE_NEEDS_PASSWORD, { currentPassword: EMAIL_CHANGE_NEEDS_PASSWORD }),
    );
    await events.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(mutateAsync).toHaveBeenCalledWith({ name: 'Nora Example', email: 'new@example.org' });
    expect(await screen.findByText(EMAIL_CHANGE_NEEDS_PASSWORD)).toBeInTheDocument();
    expect(screen.getByLabelText('Current password')).toBeInTheDocument();
  });

  it('asks a single sign-on account that set a password through a reset for it up front', async () => {
    const events = userEvent.setup();
    render(<ProfileForm user={user('oidc', true)} />);
    await events.type(screen.getByLabelText('Email'), 'x');
    expect(screen.getByLabelText('Current password')).toHaveAttribute('type', 'password');
  });
});
