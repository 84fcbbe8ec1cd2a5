import { SUPPORT } from '@conductor/shared';
import { Clock, LifeBuoy, Mail, Newspaper, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';

const CHANNELS = [
  { icon: Mail, title: 'Sales', detail: 'sales@conductor.dev', href: 'mailto:sales@conductor.dev' },
  { icon: Newspaper, title: 'Press', detail: 'press@conductor.dev', href: 'mailto:press@conductor.dev' },
  { icon: ShieldCheck, title: 'Security', detail: 'security@conductor.dev', href: 'mailto:security@conductor.dev' },
  { icon: LifeBuoy, title: 'Support', detail: SUPPORT.email, href: `mailto:${SUPPORT.email}` },
] as const;

/** The contact page's other channels and hours: static, kept from the prerendered page (see `Prerendered`). */
export default function ContactChannels() {
  return (
    <div className="space-y-6">
      <ul className="space-y-4">
        {CHANNELS.map((channel) => (
          <li key={channel.title} className="flex gap-3">
            <channel.icon className="mt-0.5 size-5 text-primary" aria-hidden="true" />
            <div>
              <p className="font-medium">{channel.title}</p>
              <a href={channel.href} className="text-sm text-muted-foreground underline-offset-4 hover:underline">
                {channel.detail}
              </a>
            </div>
          </li>
        ))}
      </ul>
      <div className="flex gap-3 rounded-xl border border-border bg-muted/40 p-4 text-sm">
        <Clock className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
        <p>
          Our team is available {SUPPORT.hours}. Need help with your account or an API error? The{' '}
          <Link to="/support/contact" className="font-medium text-primary underline underline-offset-4">
            support centre
          </Link>{' '}
          answers by e-mail {SUPPORT.responseTime}.
        </p>
      </div>
    </div>
  );
}
