import type { PublicUser } from '@conductor/shared/schemas/auth';
import { ChevronDown, Home, LayoutDashboard, LogOut } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { useNavigate } from 'react-router';
import { buttonClasses } from '~/components/ui/button';
import { planLabel, signOut } from '~/lib/auth';
import { cn } from '~/lib/cn';
import { initials } from './initials';

/**
 * The user menu: name, e-mail, '<plan> Plan', then Dashboard (on the public site) or Home
 * (inside the dashboard), and Sign Out.
 */
export default function UserMenu({ user, place = 'site' }: { user: PublicUser; place?: 'site' | 'dashboard' }) {
  const navigate = useNavigate();
  const destination =
    place === 'site' ? { to: '/dashboard', label: 'Dashboard', Icon: LayoutDashboard } : { to: '/', label: 'Home', Icon: Home };
  return (
    <DropdownMenu.Root>
      {/* The visible name leads the accessible name, so "click Demo User" works with voice control too. */}
      <DropdownMenu.Trigger className={cn(buttonClasses('ghost', 'sm'), 'gap-2')} aria-label={`${user.name}, user menu`}>
        <span
          aria-hidden="true"
          className="flex size-7 items-center justify-center rounded-full bg-accent text-xs font-semibold text-accent-foreground"
        >
          {initials(user.name)}
        </span>
        <span className={cn('max-w-32 truncate', place === 'dashboard' && 'hidden sm:inline')}>{user.name}</span>
        <ChevronDown className="size-4 text-muted-foreground" aria-hidden="true" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-50 min-w-60 rounded-lg border border-border bg-card p-1 text-sm shadow-lg"
        >
          <div className="px-3 py-2">
            <p className="font-medium">{user.name}</p>
            <p className="truncate text-muted-foreground">{user.email}</p>
            <p className="mt-1 inline-flex rounded-full bg-accent px-2 py-0.5 text-xs font-medium text-accent-foreground">
              {planLabel(user.plan)} Plan
            </p>
          </div>
          <DropdownMenu.Separator className="my-1 h-px bg-border" />
          <DropdownMenu.Item
            className="flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 outline-none data-[highlighted]:bg-muted"
            onSelect={() => navigate(destination.to)}
          >
            <destination.Icon className="size-4" /> {destination.label}
          </DropdownMenu.Item>
          <DropdownMenu.Item
            className="flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 outline-none data-[highlighted]:bg-muted"
            onSelect={async () => {
              await signOut();
              navigate('/');
            }}
          >
            <LogOut className="size-4" /> Sign Out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
