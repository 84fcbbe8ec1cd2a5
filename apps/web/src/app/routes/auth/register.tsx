import { Link } from 'react-router';
import { AuthCard } from '~/components/layouts/auth-card';
import { useRedirectIfAuthenticated } from '~/lib/guards';
import { pageMeta } from '~/lib/seo';

export const meta = () =>
  pageMeta(
    'Create your account',
    'Create a free Conductor account: 10,000 tokens, 6 LLM providers and a monitoring dashboard.',
    '/register',
  );

export default function Register() {
  useRedirectIfAuthenticated();
  return (
    <AuthCard title="Create your account" description="Start your free 14-day trial. No credit card required.">
      <p className="text-sm text-muted-foreground">
        Already have an account?{' '}
        <Link to="/login" className="font-medium text-primary hover:underline">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}
