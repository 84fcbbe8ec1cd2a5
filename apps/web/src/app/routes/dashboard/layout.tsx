import { Menu, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Outlet, useLocation } from 'react-router';
import { DashboardSidebar } from '~/components/layouts/dashboard-sidebar';
import { buttonClasses } from '~/components/ui/button';
import { Logo } from '~/components/ui/logo';
import { ThemeToggle } from '~/components/ui/theme-toggle';
import { DashboardUserMenu } from '~/components/layouts/dashboard-user-menu';
import { ConfirmEmailBanner } from '~/features/auth/components/confirm-email-banner';
import { requireOnboardedUser } from '~/lib/guards';
import { useDismiss } from '~/lib/use-dismiss';
import { QueryProvider } from '~/lib/query-provider';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('Dashboard', 'Your Conductor usage, API keys, billing and settings.', '/dashboard');

/** Every dashboard route needs a session and completed onboarding. */
export async function clientLoader({ request }: { request: Request }) {
  return { user: await requireOnboardedUser(request) };
}

export default function DashboardLayout() {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const { pathname } = location;
  // biome-ignore lint/correctness/useExhaustiveDependencies: close the menu whenever the route changes
  useEffect(() => setOpen(false), [pathname]);
  const header = useRef<HTMLElement>(null);
  const nav = useRef<HTMLElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  useDismiss(open, () => setOpen(false), [header, nav], toggle);
  return (
    <QueryProvider>
      <div className="min-h-dvh bg-muted/40">
        <header
          ref={header}
          className="sticky top-0 z-30 flex h-16 items-center justify-between gap-4 border-b border-border bg-background px-4 sm:px-6"
        >
          <div className="flex items-center gap-2">
            <button
              ref={toggle}
              type="button"
              className={`${buttonClasses('ghost', 'icon')} lg:hidden`}
              aria-label={open ? 'Close navigation' : 'Open navigation'}
              aria-expanded={open}
              aria-controls="dashboard-nav"
              onClick={() => setOpen((value) => !value)}
            >
              {open ? <X className="size-5" /> : <Menu className="size-5" />}
            </button>
            <Logo />
          </div>
          <div className="flex items-center gap-2">
            <ThemeToggle />
            <DashboardUserMenu />
          </div>
        </header>
        <div className="mx-auto flex max-w-[90rem]">
          {/* Under the open menu on a narrow screen, the page is dimmed (a press on it closes the menu). */}
          {open && <div className="fixed inset-x-0 top-16 bottom-0 z-10 bg-black/40 lg:hidden" aria-hidden="true" />}
          <aside
            ref={nav}
            id="dashboard-nav"
            className={`${open ? 'block' : 'hidden'} fixed inset-x-0 top-16 z-20 border-b border-border bg-background lg:sticky lg:block lg:h-[calc(100dvh-4rem)] lg:w-60 lg:shrink-0 lg:border-r lg:border-b-0`}
          >
            <DashboardSidebar onNavigate={() => setOpen(false)} />
          </aside>
          <main id="main" className="min-w-0 flex-1 p-4 sm:p-6 lg:p-8">
            <ConfirmEmailBanner />
            <Outlet />
          </main>
        </div>
      </div>
    </QueryProvider>
  );
}
