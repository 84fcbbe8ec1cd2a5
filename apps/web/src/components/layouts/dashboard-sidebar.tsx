import { BarChart3, CreditCard, KeyRound, LayoutDashboard, Settings } from 'lucide-react';
import { NavLink } from 'react-router';
import { cn } from '~/lib/cn';

export const DASHBOARD_LINKS = [
  { to: '/dashboard', label: 'Overview', icon: LayoutDashboard, end: true },
  { to: '/dashboard/usage', label: 'Usage', icon: BarChart3, end: false },
  { to: '/dashboard/keys', label: 'API Keys', icon: KeyRound, end: false },
  { to: '/dashboard/billing', label: 'Billing', icon: CreditCard, end: false },
  { to: '/dashboard/settings', label: 'Settings', icon: Settings, end: false },
] as const;

export function DashboardSidebar({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <nav aria-label="Dashboard" className="flex flex-col gap-1 p-3">
      {DASHBOARD_LINKS.map(({ to, label, icon: Icon, end }) => (
        <NavLink
          key={to}
          to={to}
          end={end}
          onClick={onNavigate}
          className={({ isActive }) =>
            cn(
              'flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors',
              isActive ? 'bg-accent text-accent-foreground' : 'text-muted-foreground hover:bg-muted hover:text-foreground',
            )
          }
        >
          <Icon className="size-4" aria-hidden="true" />
          {label}
        </NavLink>
      ))}
    </nav>
  );
}
