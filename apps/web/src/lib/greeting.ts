const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The overview's welcome, with the first name ("User" without one). An account on its first
 * day has not been "back" yet: it is welcomed; after that, welcomed back.
 */
export function greeting(user: { name: string; createdAt: string } | null | undefined, now = Date.now()): string {
  const firstName = user?.name.trim().split(/\s+/)[0] || 'User';
  const age = user ? now - Date.parse(user.createdAt) : Number.NaN;
  return age < DAY_MS ? `Welcome, ${firstName}` : `Welcome back, ${firstName}`;
}
