import { MyTickets } from './my-tickets';
import { TicketForm } from './ticket-form';

/** What `LazyTicketForm` loads: the ticket form and, below it, a signed-in user's tickets. */
export default function TicketPanel({ liveChat }: { liveChat: number | null }) {
  return (
    <>
      <TicketForm liveChat={liveChat} />
      <MyTickets />
    </>
  );
}
