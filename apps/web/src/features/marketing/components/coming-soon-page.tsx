import { Link } from 'react-router';
import { Logo } from '~/components/ui/logo';

export function ComingSoonPage() {
  return (
    <div className="flex min-h-dvh flex-col">
      <header className="mx-auto flex w-full max-w-7xl items-center justify-between px-4 py-6 sm:px-6 lg:px-8">
        <Logo />
      </header>
      <main className="mx-auto flex w-full max-w-3xl flex-1 flex-col items-center justify-center px-4 py-16 text-center">
        <h1 className="text-4xl font-semibold tracking-tight text-balance sm:text-6xl">
          The LLM gateway that cuts your AI bill by up to 70%
        </h1>
        <p className="mt-6 text-lg text-muted-foreground">Conductor is launching soon. Join the waitlist for early access.</p>
        <div className="mt-8 flex gap-4 text-sm">
          <Link className="text-primary underline-offset-4 hover:underline" to="/portal">
            Developer portal
          </Link>
          <Link className="text-primary underline-offset-4 hover:underline" to="/docs">
            Documentation
          </Link>
        </div>
      </main>
      <footer className="border-t border-border py-6 text-center text-sm text-muted-foreground">
        © {new Date().getFullYear()} Conductor, Inc.
      </footer>
    </div>
  );
}
