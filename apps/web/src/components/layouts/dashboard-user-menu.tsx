import { useAuth } from '~/lib/auth';
import UserMenu from './user-menu';

/** The dashboard top bar's user menu (the same menu as the site header's, with Home). */
export function DashboardUserMenu() {
  const { user } = useAuth();
  if (!user) return null;
  return <UserMenu user={user} place="dashboard" />;
}
