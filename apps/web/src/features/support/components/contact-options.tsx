import { SUPPORT } from '@conductor/shared';
import { Mail, MessageCircle, Users } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '~/components/ui/button';
import { Card } from '~/components/ui/card';

/** Live Chat, Email Support and Community Forum. */
export function ContactOptions({ onLiveChat }: { onLiveChat: () => void }) {
  return (
    <div className="grid gap-4 md:grid-cols-3">
      <Card className="flex flex-col p-6">
        <MessageCircle className="size-6 text-primary" aria-hidden />
        <h2 className="mt-4 font-semibold">Live Chat</h2>
        <p className="mt-1 flex-1 text-sm text-muted-foreground">Chat with our team {SUPPORT.hours}. Available 24/7 for Pro+ customers.</p>
        <button type="button" onClick={onLiveChat} className={buttonClasses('primary', 'md', 'mt-4 w-full')}>
          Start Chat
        </button>
      </Card>
      <Card className="flex flex-col p-6">
        <Mail className="size-6 text-primary" aria-hidden />
        <h2 className="mt-4 font-semibold">Email Support</h2>
        <p className="mt-1 flex-1 text-sm text-muted-foreground">
          Write to {SUPPORT.email}. We reply {SUPPORT.responseTime}.
        </p>
        <a href={`mailto:${SUPPORT.email}`} className={buttonClasses('secondary', 'md', 'mt-4 w-full')}>
          Send Email
        </a>
      </Card>
      <Card className="flex flex-col p-6">
        <Users className="size-6 text-primary" aria-hidden />
        <h2 className="mt-4 font-semibold">Community Forum</h2>
        <p className="mt-1 flex-1 text-sm text-muted-foreground">
          Recipes, routing patterns and answers from other teams building on Conductor.
        </p>
        <Link to="/support/community" className={buttonClasses('secondary', 'md', 'mt-4 w-full')}>
          Visit Forum
        </Link>
      </Card>
    </div>
  );
}
