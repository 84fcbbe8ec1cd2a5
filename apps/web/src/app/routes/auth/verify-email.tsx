import { useSearchParams } from 'react-router';
import { AuthCard } from '~/components/layouts/auth-card';
import { VerifyEmail } from '~/features/auth/components/verify-email';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('Confirm your email address', 'Confirm the email address of your Conductor account.', '/verify-email');

export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  return (
    <AuthCard title="Confirm your email address" description="The link in your confirmation email works for 3 days.">
      <VerifyEmail token={params.get('token')} />
    </AuthCard>
  );
}
