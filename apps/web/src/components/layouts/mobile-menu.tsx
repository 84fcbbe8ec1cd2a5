import { Link, NavLink, useNavigate } from 'react-router';
import { buttonClasses } from '~/components/ui/button';
import { ThemeToggle } from '~/components/ui/theme-toggle';
import { planLabel, signOut, useAuth } from '~/lib/auth';
import { HEADER_LINKS } from './header-links';

/** The narrow-screen menu of the public site: the main links, the account actions and the theme. */
export default function MobileMenu() {
  return (
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
