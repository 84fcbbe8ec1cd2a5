import { Link } from 'react-router';
import { AuthCard } from '~/components/layouts/auth-card';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('Reset your password', 'Request a password reset link for your Conductor account.', '/forgot-password');

export default function ForgotPassword() {
  return (
    <AuthCard title="Reset your password" description="Enter your e-mail and we will send you a link to choose a new password.">
      <Link to="/login" className="text-sm font-medium text-primary hover:underline">
        Back to sign in
      </Link>
    </AuthCard>
  );
}
