import { Menu, X } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { buttonClasses } from '~/components/ui/button';
import { Logo } from '~/components/ui/logo';
import { ThemeToggle } from '~/components/ui/theme-toggle';
import { planLabel, signOut, useAuth } from '~/lib/auth';
import { cn } from '~/lib/cn';

/** The signed-in menu (radix dropdown) loads only for signed-in visitors. */
const UserMenu = lazy(() => import('./user-menu'));

export const HEADER_LINKS = [
  { to: '/home', label: 'Home' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/docs', label: 'Documentation' },
  { to: '/support', label: 'Support' },
] as const;

export function SiteHeader() {
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const { pathname } = location;
  // biome-ignore lint/correctness/useExhaustiveDependencies: close the menu whenever the route changes
  useEffect(() => setMenuOpen(false), [pathname]);

  return (
    <header className="sticky top-0 z-40 border-b border-border/80 bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Logo />
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {HEADER_LINKS.map((link) => (
            <NavLink
              key={link.to}
              to={link.to}
              className={({ isActive }) =>
                cn(
                  'rounded-md px-3 py-2 text-sm font-medium transition-colors hover:text-foreground',
                  isActive ? 'text-foreground' : 'text-muted-foreground',
                )
              }
            >
              {link.label}
            </NavLink>
          ))}
        </nav>
        <div className="hidden items-center gap-2 md:flex">
          <ThemeToggle />
          <AccountArea />
        </div>
        <button
          type="button"
          className={cn(buttonClasses('ghost', 'icon'), 'md:hidden')}
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? <X className="size-5" /> : <Menu className="size-5" />}
        </button>
      </div>
      {menuOpen && (
        <div id="mobile-menu" className="border-t border-border bg-background md:hidden">
          <nav aria-label="Mobile" className="mx-auto flex max-w-7xl flex-col gap-1 px-4 py-3">
            {HEADER_LINKS.map((link) => (
              <NavLink key={link.to} to={link.to} className="rounded-md px-3 py-2 text-base font-medium hover:bg-muted">
                {link.label}
              </NavLink>
            ))}
            <div className="mt-2 flex flex-col gap-2 border-t border-border pt-3">
              <MobileAccountArea />
              <ThemeToggle withLabel />
            </div>
          </nav>
        </div>
      )}
    </header>
  );
}

function AccountArea() {
  const { user, isAuthenticated } = useAuth();
  if (!isAuthenticated || !user) {
    return (
      <>
        <Link to="/login" className={buttonClasses('ghost', 'sm')}>
          Sign In
        </Link>
        <Link to="/register" className={buttonClasses('primary', 'sm')}>
          Get Started
        </Link>
      </>
    );
  }
  return (
    <Suspense fallback={<span className="h-8 w-36" aria-hidden="true" />}>
      <UserMenu user={user} />
    </Suspense>
  );
}

function MobileAccountArea() {
  const { user, isAuthenticated } = useAuth();
  const navigate = useNavigate();
  if (!isAuthenticated || !user) {
    return (
      <>
        <Link to="/login" className={buttonClasses('secondary', 'md')}>
          Sign In
        </Link>
        <Link to="/register" className={buttonClasses('primary', 'md')}>
          Get Started
        </Link>
      </>
    );
  }
  return (
    <>
      <div className="px-3 py-1 text-sm">
        <p className="font-medium">{user.name}</p>
        <p className="text-muted-foreground">{user.email}</p>
        <p className="text-muted-foreground">{planLabel(user.plan)} Plan</p>
      </div>
      <Link to="/dashboard" className={buttonClasses('secondary', 'md')}>
        Dashboard
      </Link>
      <button
        type="button"
        className={buttonClasses('ghost', 'md')}
        onClick={async () => {
          await signOut();
          navigate('/');
        }}
      >
        Sign Out
      </button>
    </>
  );
}
