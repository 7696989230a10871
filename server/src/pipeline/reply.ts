// Automatic messages (bot menus, greetings, notes, rating requests) go through the same send path
// as an agent's, but never fail the work that caused them: a ticket is accepted even when its
// greeting cannot leave; the failure is logged.
import type { AppDeps } from '../context.ts';
import type { MessageRow } from '../modules/messages/dto.ts';
import { sendTicketMessage } from '../modules/messages/send.ts';
import type { TicketRow } from '../modules/tickets/dto.ts';

export async function sendAutoReply(deps: AppDeps, ticket: TicketRow, body: string): Promise<MessageRow | undefined> {
  if (body.trim() === '') return undefined;
  try {
    return await sendTicketMessage(deps, ticket, { body });
  } catch (err) {
    deps.log.warn('automatic message not sent', { ticketId: ticket.id, error: err instanceof Error ? err.message : String(err) });
    return undefined;
  }
}
