import { AppError } from '../../lib/errors.ts';
import type { UserRow } from './users.repository.ts';

/**
 * Refuses (403) a change the shared demo account may not make (DEMO_ACCOUNT_REFUSALS says which
 * and why). With `field`, the message is also put on the form field it concerns.
 */
export function refuseOnDemo(user: Pick<UserRow, 'isDemo'>, message: string, field?: string): void {
  if (user.isDemo) throw new AppError('forbidden', message, field ? { fields: { [field]: message } } : {});
}
