import { PrerenderedForm } from '~/components/ui/prerendered-form';
import { useAuth } from '~/lib/auth';

/** The form (its fields, the attachment picker, the upload code) and the signed-in user's tickets. */
const loadTicketPanel = () => import('./ticket-panel');

/**
 * The ticket form as the support pages show it: prerendered, and kept as HTML until a visitor
 * first uses it (see `PrerenderedForm`). A signed-in user's form (no name and e-mail fields,
 * their tickets below) and a live chat request (`liveChat`, see `TicketForm`) load it at once.
 */
export function LazyTicketForm({ liveChat = null }: { liveChat?: number | null }) {
  const { isAuthenticated } = useAuth();
  return <PrerenderedForm load={loadTicketPanel} props={{ liveChat }} eager={isAuthenticated || liveChat !== null} />;
}
