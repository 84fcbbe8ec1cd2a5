import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import type { SessionRow } from '../auth/session.service.ts';
import type { UserRow } from '../users/users.repository.ts';

/** The signed-in user and session of a portal request (the portal's preHandler has already checked). */
export function signedIn(request: FastifyRequest): { user: UserRow; session: SessionRow } {
  if (!request.auth) throw new AppError('unauthorized', 'Sign in to continue.');
  return request.auth;
}
