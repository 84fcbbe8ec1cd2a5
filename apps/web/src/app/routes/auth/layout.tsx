import { Link, Outlet } from 'react-router';
import { Logo } from '~/components/ui/logo';

export default function AuthLayout() {
  return (
    <div className="flex min-h-dvh flex-col bg-muted/40">
      <header className="mx-auto flex w-full max-w-7xl items-center justify-between gap-4 px-4 py-5 sm:px-6 lg:px-8">
        <Logo />
        <Link to="/" className="rounded-sm text-sm font-medium text-muted-foreground hover:text-foreground">
          Back to home
        </Link>
      </header>
      <main id="main" className="flex flex-1 items-start justify-center px-4 pb-16 sm:items-center">
        <Outlet />
      </main>
    </div>
  );
}
