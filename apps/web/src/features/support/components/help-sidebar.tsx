import { SUPPORT } from '@conductor/shared';
import { BookOpen, Clock, FileCode, Gauge, KeyRound, Mail, ShieldAlert, Zap } from 'lucide-react';
import { Link } from 'react-router';
import { Card } from '~/components/ui/card';

const RESOURCES = [
  { label: 'Quick Start guide', href: '/docs/quick-start', icon: Zap },
  { label: 'Authentication and API keys', href: '/docs/authentication', icon: KeyRound },
  { label: 'API Reference', href: '/docs/api', icon: FileCode },
  { label: 'Rate limits and quotas', href: '/docs/rate-limiting', icon: Gauge },
  { label: 'Error codes', href: '/docs/error-handling', icon: ShieldAlert },
  { label: 'Best practices', href: '/docs/best-practices', icon: BookOpen },
];

export function PopularResources() {
  return (
    <Card className="p-6">
      <h2 className="font-semibold">Popular Resources</h2>
      <ul className="mt-4 space-y-2 text-sm">
        {RESOURCES.map(({ label, href, icon: Icon }) => (
          <li key={href}>
            <Link to={href} className="flex items-center gap-2 rounded-md py-1 text-muted-foreground transition-colors hover:text-primary">
              <Icon className="size-4 shrink-0" aria-hidden />
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}

export function ContactDetails() {
  return (
    <Card className="p-6">
      <h2 className="font-semibold">Contact Details</h2>
      <dl className="mt-4 space-y-3 text-sm">
        <div className="flex gap-3">
          <dt>
            <Mail className="mt-0.5 size-4 text-muted-foreground" aria-label="E-mail" />
          </dt>
          <dd>
            <a href={`mailto:${SUPPORT.email}`} className="font-medium text-primary hover:underline">
              {SUPPORT.email}
            </a>
            <span className="block text-muted-foreground">Reply {SUPPORT.responseTime}</span>
          </dd>
        </div>
        <div className="flex gap-3">
          <dt>
            <Clock className="mt-0.5 size-4 text-muted-foreground" aria-label="Hours" />
          </dt>
          <dd>
            {SUPPORT.hours}
            <span className="block text-muted-foreground">24/7 live chat for Pro+ customers</span>
          </dd>
        </div>
      </dl>
      <Link to="/support/contact" className="mt-4 inline-block text-sm font-medium text-primary hover:underline">
        All ways to reach us →
      </Link>
    </Card>
  );
}
