import { Card } from '~/components/ui/card';
import { OidcCallback } from '~/features/auth/components/oidc-callback';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('Signing you in', 'Completing single sign-on.', '/auth/callback');

export default function AuthCallback() {
  return (
    <Card className="w-full max-w-md p-6 sm:p-8">
      <OidcCallback />
    </Card>
  );
}
