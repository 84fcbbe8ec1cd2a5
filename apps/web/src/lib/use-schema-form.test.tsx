import { LoginRequest } from '@conductor/shared/schemas/auth';
import { MESSAGES } from '@conductor/shared/constants/messages';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { toast } from './toast';
import { FORM_LOAD_FAILED, type FormSchema, firstErrors, useSchemaForm } from './use-schema-form';

vi.mock('./toast', () => ({ toast: { success: vi.fn(), error: vi.fn(), info: vi.fn() } }));

const DEFAULTS = { email: '', password: '', remember: false };

function LoginLike({ onValid }: { onValid: (values: unknown) => void }) {
  const form = useSchemaForm({ schema: async () => LoginRequest, defaultValues: DEFAULTS });
  return (
    <form onSubmit={form.handleSubmit(onValid)} noValidate>
      <input aria-label="Email" {...form.register('email')} />
      {form.errors.email && <p>{form.errors.email}</p>}
      <input aria-label="Password" {...form.register('password')} />
      {form.errors.password && <p>{form.errors.password}</p>}
      <input aria-label="Remember" type="checkbox" {...form.register('remember')} />
      <button type="submit">{form.isSubmitting ? 'Busy' : 'Go'}</button>
      <button type="button" onClick={() => form.setValue('email', 'demo@conductor.dev')}>
        Fill
      </button>
    </form>
  );
}

/** A schema download that fails `failures` times (a dropped connection), then works. */
function flakySchema(failures: number) {
  let calls = 0;
  return vi.fn(async (): Promise<FormSchema<unknown>> => {
    calls += 1;
    if (calls <= failures) throw new TypeError('Failed to fetch dynamically imported module');
    return LoginRequest;
  });
}

function FlakyForm({ schema, onValid }: { schema: () => Promise<FormSchema<unknown>>; onValid: (values: unknown) => void }) {
  const form = useSchemaForm({ schema, defaultValues: DEFAULTS });
  return (
    <form onSubmit={form.handleSubmit(onValid)} onFocus={() => void form.preload()} noValidate>
      <input aria-label="Email" {...form.register('email')} />
      {form.errors.email && <p>{form.errors.email}</p>}
      <button type="submit">{form.isSubmitting ? 'Busy' : 'Go'}</button>
    </form>
  );
}

describe('useSchemaForm', () => {
  it('takes the first message of each field, as the zod resolver did', () => {
    expect(
      firstErrors([
        { path: ['email'], message: 'required' },
        { path: ['email'], message: 'invalid' },
        { path: ['password'], message: 'short' },
        { path: [], message: 'form-level' },
      ]),
    ).toEqual({ email: 'required', password: 'short' });
  });

  it('validates with the shared schema on submit, focuses the first invalid field and re-checks fields as they change', async () => {
    const onValid = vi.fn();
    render(<LoginLike onValid={onValid} />);
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    expect(await screen.findByText(MESSAGES.login.emailRequired)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.login.passwordRequired)).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveFocus();
    expect(onValid).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'not-an-email' } });
    expect(await screen.findByText(MESSAGES.login.emailInvalid)).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: '12345' } });
    expect(await screen.findByText(MESSAGES.login.passwordTooShort)).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Fill' }));
    await waitFor(() => expect(screen.queryByText(MESSAGES.login.emailInvalid)).not.toBeInTheDocument());
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: '123456' } });
    fireEvent.click(screen.getByLabelText('Remember'));
    fireEvent.click(screen.getByRole('button', { name: 'Go' }));
    await waitFor(() => expect(onValid).toHaveBeenCalledWith({ email: 'demo@conductor.dev', password: '123456', remember: true }));
  });

  it('does not re-check before the first submit', async () => {
    render(<LoginLike onValid={vi.fn()} />);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'not-an-email' } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByText(MESSAGES.login.emailInvalid)).not.toBeInTheDocument();
  });

  describe('when the schema cannot be downloaded', () => {
    it('a submit says so in a toast, and the next one downloads it again', async () => {
      vi.mocked(toast.error).mockClear();
      const schema = flakySchema(1);
      const onValid = vi.fn();
      render(<FlakyForm schema={schema} onValid={onValid} />);
      fireEvent.click(screen.getByRole('button', { name: 'Go' }));
      await waitFor(() => expect(toast.error).toHaveBeenCalledWith(FORM_LOAD_FAILED));
      expect(await screen.findByRole('button', { name: 'Go' })).toBeInTheDocument();
      expect(onValid).not.toHaveBeenCalled();

      fireEvent.click(screen.getByRole('button', { name: 'Go' }));
      expect(await screen.findByText(MESSAGES.login.emailRequired)).toBeInTheDocument();
      expect(schema).toHaveBeenCalledTimes(2);
      expect(toast.error).toHaveBeenCalledTimes(1);
    });

    it('a failed download on focus is tried again by the submit, without an unhandled rejection', async () => {
      vi.mocked(toast.error).mockClear();
      const schema = flakySchema(1);
      render(<FlakyForm schema={schema} onValid={vi.fn()} />);
      fireEvent.focus(screen.getByLabelText('Email'));
      await waitFor(() => expect(schema).toHaveBeenCalledTimes(1));
      fireEvent.click(screen.getByRole('button', { name: 'Go' }));
      expect(await screen.findByText(MESSAGES.login.emailRequired)).toBeInTheDocument();
      expect(schema).toHaveBeenCalledTimes(2);
      expect(toast.error).not.toHaveBeenCalled();
    });
  });
});
