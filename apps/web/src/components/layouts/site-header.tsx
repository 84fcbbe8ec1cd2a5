import { Menu, X } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { buttonClasses } from '~/components/ui/button';
import { Logo } from '~/components/ui/logo';
import { ThemeToggle } from '~/components/ui/theme-toggle';
import { useAuth } from '~/lib/auth';
import { cn } from '~/lib/cn';
import { useDismiss } from '~/lib/use-dismiss';
import { HEADER_LINKS } from './header-links';

/** The signed-in menu (radix dropdown) loads only for signed-in visitors. */
const UserMenu = lazy(() => import('./user-menu'));
/** The narrow-screen menu loads when it is first opened. */
const MobileMenu = lazy(() => import('./mobile-menu'));

export function SiteHeader() {
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const { pathname } = location;
  // biome-ignore lint/correctness/useExhaustiveDependencies: close the menu whenever the route changes
  useEffect(() => setMenuOpen(false), [pathname]);
  const header = useRef<HTMLElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  useDismiss(menuOpen, () => setMenuOpen(false), [header], toggle);

  return (
    <header
      ref={header}
      className="sticky top-0 z-40 border-b border-border/80 bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70"
    >
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
          ref={toggle}
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
        <Suspense fallback={null}>
          <MobileMenu />
        </Suspense>
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
