import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { Card } from '~/components/ui/card';
import { Tab, TabList, TabPanel, Tabs } from '~/components/ui/tabs';
import { BenefitsList } from '~/features/auth/components/benefits-list';
import { RegisterForm } from '~/features/auth/components/register-form';
import { useNextPage } from '~/features/auth/hooks/use-next-page';
import { useRedirectIfSignedIn } from '~/features/auth/hooks/use-redirect-if-signed-in';
import { withNext } from '~/lib/next-path';
import { chosenPlan } from '~/features/billing/lib/plan-request';
import { planLabel } from '~/lib/auth';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta(
    'Create your account',
    'Create a free Conductor account: 10,000 tokens, 6 LLM providers and a monitoring dashboard.',
    '/register',
  );

/** The single sign-on tab (with the providers' schemas) loads when it is opened. */
const SsoProviders = lazy(() => import('~/features/auth/components/sso-providers').then((module) => ({ default: module.SsoProviders })));

const TAB_TRIGGER =
  'flex-1 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors hover:text-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring data-[state=active]:bg-card data-[state=active]:text-foreground data-[state=active]:shadow-sm';

export default function Register() {
  useRedirectIfSignedIn();
  // A plan chosen on the pricing page: named here, and carried through sign-up (or sign-in) to Billing.
  const next = useNextPage();
  const chosen = chosenPlan(next);
  return (
    <Card className="grid w-full max-w-4xl overflow-hidden md:grid-cols-5">
      <aside className="border-b border-border bg-accent/40 p-6 sm:p-8 md:col-span-2 md:border-r md:border-b-0">
        <p className="text-sm font-semibold text-accent-foreground">Start free</p>
        <p className="mt-2 text-lg font-semibold tracking-tight">One API for every LLM, with the controls you need.</p>
        <div className="mt-6">
          <BenefitsList />
        </div>
      </aside>
      <div className="p-6 sm:p-8 md:col-span-3">
        <h1 className="text-2xl font-semibold tracking-tight">Create your account</h1>
        <p className="mt-2 text-sm text-muted-foreground">Start your free 14-day trial. No credit card required.</p>
        {chosen && (
          <p className="mt-3 rounded-md bg-accent px-3 py-2 text-sm text-accent-foreground" data-testid="chosen-plan">
            You chose the {planLabel(chosen.plan)} plan ({chosen.period}). Once your account is set up, Billing opens with it: your free
            trial starts there, with a confirmed email address.
          </p>
        )}
        <Tabs defaultValue="email" className="mt-6">
          <TabList aria-label="How to sign up" className="flex gap-1 rounded-lg bg-muted p-1">
            <Tab value="email" className={TAB_TRIGGER}>
              Email Signup
            </Tab>
            <Tab value="oidc" className={TAB_TRIGGER}>
              SSO/OIDC
            </Tab>
          </TabList>
          {/* Kept mounted: a look at the SSO tab must not erase what was typed here. */}
          <TabPanel value="email" keepMounted className="mt-6 focus-visible:outline-none">
            <RegisterForm />
          </TabPanel>
          <TabPanel value="oidc" className="mt-6 focus-visible:outline-none">
            <Suspense fallback={null}>
              <SsoProviders />
            </Suspense>
          </TabPanel>
        </Tabs>
        <p className="mt-6 text-center text-sm text-muted-foreground">
          Already have an account?{' '}
          <Link to={withNext('/login', next)} className="font-medium text-primary hover:underline">
            Sign in
          </Link>
        </p>
      </div>
    </Card>
  );
}
