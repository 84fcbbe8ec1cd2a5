import { Link } from 'react-router';
import { AuthCard } from '~/components/layouts/auth-card';
import { LoginForm } from '~/features/auth/components/login-form';
import { useNextPage } from '~/features/auth/hooks/use-next-page';
import { useRedirectIfSignedIn } from '~/features/auth/hooks/use-redirect-if-signed-in';
import { withNext } from '~/lib/next-path';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('Sign In', 'Sign in to your Conductor dashboard.', '/login');

export default function Login() {
  useRedirectIfSignedIn();
  // A new account is sent on to the same page (`?next=`) once set up.
  const next = useNextPage();
  return (
    <AuthCard title="Welcome back" description="Sign in to your Conductor account.">
      <LoginForm />
      <p className="mt-6 text-center text-sm text-muted-foreground">
        Don&apos;t have an account?{' '}
        <Link to={withNext('/register', next)} className="font-medium text-primary hover:underline">
          Sign up
        </Link>
      </p>
    </AuthCard>
  );
}
