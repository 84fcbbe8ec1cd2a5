import { redirect } from 'react-router';
import { AuthCard } from '~/components/layouts/auth-card';
import { Logo } from '~/components/ui/logo';
import { OnboardingWizard } from '~/features/onboarding/components/onboarding-wizard';
import { firstName } from '~/lib/greeting';
import { requireUser } from '~/lib/guards';
import { QueryProvider } from '~/lib/query-provider';
import { pageMeta } from '~/lib/seo';
import type { Route } from './+types/onboarding';

export const meta = () => pageMeta('Get started', 'Set up your Conductor account.', '/onboarding');

/** Signed-in users only; a finished onboarding is not offered again (its keys step would only answer 409). */
export async function clientLoader() {
  const user = await requireUser();
  if (user.onboardingCompleted) throw redirect('/dashboard');
  return { user };
}

export default function Onboarding({ loaderData }: Route.ComponentProps) {
  return (
    <div className="flex min-h-dvh flex-col bg-muted/40">
      <header className="mx-auto flex w-full max-w-7xl items-center px-4 py-5 sm:px-6 lg:px-8">
        <Logo />
      </header>
      <main id="main" className="flex flex-1 items-start justify-center px-4 pb-16">
        <AuthCard wide title={`Welcome, ${firstName(loaderData.user)}`} description="Let’s get your account ready.">
          <QueryProvider>
            <OnboardingWizard />
          </QueryProvider>
        </AuthCard>
      </main>
    </div>
  );
}
