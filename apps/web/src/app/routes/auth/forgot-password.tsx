import { AuthCard } from '~/components/layouts/auth-card';
import { ForgotPasswordForm } from '~/features/auth/components/forgot-password-form';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('Reset your password', 'Request a password reset link for your Conductor account.', '/forgot-password');

export default function ForgotPassword() {
  return (
    <AuthCard title="Reset your password" description="Enter your email and we will send you a link to choose a new password.">
      <ForgotPasswordForm />
    </AuthCard>
  );
}
