import type { ReactNode } from 'react';
import { DashboardPage } from '~/components/layouts/dashboard-page';
import { Card } from '~/components/ui/card';
import { DangerZone } from '~/features/settings/components/danger-zone';
import { PasswordForm } from '~/features/settings/components/password-form';
import { ProfileForm } from '~/features/settings/components/profile-form';
import { ProviderKeysPanel } from '~/features/settings/components/provider-keys-panel';
import { RoutingForm } from '~/features/settings/components/routing-form';
import { SessionsList } from '~/features/settings/components/sessions-list';
import { useAuth } from '~/lib/auth';
import { pageMeta } from '~/lib/seo';

export const meta = () => pageMeta('Settings', 'Your profile, password, provider keys, routing and sessions.', '/dashboard/settings');

function Section({
  id,
  title,
  description,
  children,
  danger = false,
}: {
  id: string;
  title: string;
  description: string;
  children: ReactNode;
  danger?: boolean;
}) {
  return (
    <Card className={danger ? 'min-w-0 border-danger/40 p-5' : 'min-w-0 p-5'}>
      <section aria-labelledby={id}>
        <h2 id={id} className={danger ? 'font-semibold text-danger' : 'font-semibold'}>
          {title}
        </h2>
        <p className="mb-4 text-sm text-muted-foreground">{description}</p>
        {children}
      </section>
    </Card>
  );
}

export default function SettingsPage() {
  const { user } = useAuth();
  if (!user) return null;
  return (
    <DashboardPage title="Settings" description="Your profile, password, provider keys, routing and sessions.">
      <Section id="profile" title="Profile" description="Your name and the e-mail you sign in with.">
        <ProfileForm user={user} />
      </Section>
      <Section id="password" title="Change password" description="Other sessions are signed out when the password changes.">
        <PasswordForm hasPassword={user.hasPassword} isDemo={user.isDemo} />
      </Section>
      <Section
        id="provider-keys"
        title="Provider keys"
        description="Your own provider keys, used before hosted keys. Stored encrypted (AES-256-GCM), shown masked."
      >
        <ProviderKeysPanel user={user} />
      </Section>
      <Section
        id="routing"
        title="Routing"
        description="How the gateway routes requests that bring no routing policy of their own, for every API key of your account."
      >
        <RoutingForm isDemo={user.isDemo} />
      </Section>
      <Section id="sessions" title="Active sessions" description="Devices signed in to your account.">
        <SessionsList isDemo={user.isDemo} />
      </Section>
      <Section id="danger-zone" title="Danger zone" description="Sign out, or delete your account for good." danger>
        <DangerZone user={user} />
      </Section>
    </DashboardPage>
  );
}
