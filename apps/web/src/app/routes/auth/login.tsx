import { Link } from 'react-router';
import { AuthCard } from '~/components/layouts/auth-card';
import { useRedirectIfAuthenticated } from '~/lib/guards';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('Sign In', 'Sign in to your Conductor dashboard.', '/login');

export default function Login() {
  useRedirectIfAuthenticated();
  return (
    <AuthCard title="Welcome back" description="Sign in to your Conductor account.">
      <p className="text-sm text-muted-foreground">
        Don&apos;t have an account?{' '}
        <Link to="/register" className="font-medium text-primary hover:underline">
          Sign up
        </Link>
      </p>
    </AuthCard>
  );
}
