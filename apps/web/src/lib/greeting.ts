const DAY_MS = 24 * 60 * 60 * 1000;

/** The first word of the account's name, or "User" when it has none (spec: the overview's welcome). */
export function firstName(user: { name: string } | null | undefined): string {
  return user?.name.trim().split(/\s+/)[0] || 'User';
}

/**
 * The overview's welcome. An account in its first 24 hours has not been "back" yet: it is
 * welcomed; after that, welcomed back.
 */
export function greeting(user: { name: string; createdAt: string } | null | undefined, now = Date.now()): string {
  const age = user ? now - Date.parse(user.createdAt) : Number.NaN;
  return age < DAY_MS ? `Welcome, ${firstName(user)}` : `Welcome back, ${firstName(user)}`;
}
