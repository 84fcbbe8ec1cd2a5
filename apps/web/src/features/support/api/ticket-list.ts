import { SupportTicketList } from '@conductor/shared/schemas/support';
import { queryOptions } from '@tanstack/react-query';
import { api } from '~/lib/api-client';
import { supportKeys } from './tickets';

/** The signed-in user's tickets, newest first (loaded with the list, only for a signed-in user). */
export const ticketsQueryOptions = queryOptions({
  queryKey: supportKeys.tickets(),
  queryFn: async () => SupportTicketList.parse(await api.get('/support/tickets')).tickets,
});
