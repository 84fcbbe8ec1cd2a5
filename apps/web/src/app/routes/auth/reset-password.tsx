import { AuthCard } from '~/components/layouts/auth-card';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('Choose a new password', 'Choose a new password for your Conductor account.', '/reset-password');

export default function ResetPassword() {
  return <AuthCard title="Choose a new password" description="Your reset link is valid for one hour and can be used once." />;
}
