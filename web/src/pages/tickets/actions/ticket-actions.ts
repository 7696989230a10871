// Which ticket actions a user is offered (spec/02 §2.6, §4, §6), as one pure function the action
// bar, the list item and the tests share. The server enforces the same rules.
import { can, type Ticket } from '@zapdesk/sync';

export type Actor = { id: number; profile: string };

export type TicketAction = 'accept' | 'spy' | 'return' | 'resolve' | 'transfer' | 'schedule' | 'reopen' | 'delete' | 'tags' | 'write';

export function ticketActions(ticket: Pick<Ticket, 'status' | 'userId'>, actor: Actor): Set<TicketAction> {
  const out = new Set<TicketAction>();
  const admin = actor.profile === 'admin';
  const mine = ticket.userId === actor.id;
  if (ticket.status === 'pending') {
    out.add('accept');
    // Admins peek at a conversation without accepting it.
    if (admin) out.add('spy');
    out.add('resolve');
    out.add('transfer');
  }
  if (ticket.status === 'open') {
    if (mine || admin) {
      out.add('return');
      out.add('resolve');
      out.add('transfer');
      out.add('schedule');
      out.add('tags');
      out.add('write');
    } else {
      // Someone else's conversation: taking it over is an accept.
      out.add('accept');
      if (admin) out.add('spy');
    }
  }
  if (ticket.status === 'closed') out.add('reopen');
  if (can(actor, 'ticket-options:deleteTicket')) out.add('delete');
  return out;
}
