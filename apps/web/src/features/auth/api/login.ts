import type { AuthUserResponse, LoginRequest } from '@conductor/shared';
import { api } from '~/lib/api-client';

/** POST /auth/login. A wrong password is a 401 that must not trigger the global session-expired logout. */
export function login(values: LoginRequest): Promise<AuthUserResponse> {
  return api.post<AuthUserResponse>('/auth/login', values, { skipAuthHandling: true });
}
