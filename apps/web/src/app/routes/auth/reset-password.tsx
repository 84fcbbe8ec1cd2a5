import { useSearchParams } from 'react-router';
import { AuthCard } from '~/components/layouts/auth-card';
import { ResetPasswordForm } from '~/features/auth/components/reset-password-form';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('Choose a new password', 'Choose a new password for your Conductor account.', '/reset-password');

export default function ResetPassword() {
  const [params] = useSearchParams();
  return (
    <AuthCard title="Choose a new password" description="Your reset link is valid for one hour and can be used once.">
      <ResetPasswordForm token={params.get('token')} />
    </AuthCard>
  );
}
