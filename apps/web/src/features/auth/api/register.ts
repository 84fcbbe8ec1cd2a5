import type { AuthUserResponse, RegisterRequest } from '@conductor/shared';
import { api } from '~/lib/api-client';

/** POST /auth/register: the spec's registration payload (email, password, name). */
export function register(values: RegisterRequest): Promise<AuthUserResponse> {
  return api.post<AuthUserResponse>(
    '/auth/register',
    { name: values.name, email: values.email, password: values.password },
    { skipAuthHandling: true },
  );
}
