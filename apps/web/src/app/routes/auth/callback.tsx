import { AuthCard } from '~/components/layouts/auth-card';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('Signing you in', 'Completing single sign-on.', '/auth/callback');

export default function AuthCallback() {
  return <AuthCard title="Completing sign-in…" description="Verifying your identity with your provider." />;
}
