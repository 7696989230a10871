// Which ticket actions a user is offered (spec/02 §2.6, §4, §6), as one pure function the action
// bar, the list item and the tests share. The server enforces the same rules.
import { can, isCompanyAdmin, type Ticket } from '@zapdesk/sync';

export type Actor = { id: number; profile: string; super?: boolean };

export type TicketAction = 'accept' | 'spy' | 'return' | 'resolve' | 'transfer' | 'schedule' | 'reopen' | 'delete' | 'tags' | 'write' | 'resend';

export function ticketActions(ticket: Pick<Ticket, 'status' | 'userId'>, actor: Actor): Set<TicketAction> {
  const out = new Set<TicketAction>();
  const admin = isCompanyAdmin(actor);
  const mine = ticket.userId === actor.id;
  if (ticket.status === 'pending') {
    out.add('accept');
    // Admins peek at a conversation without accepting it.
    if (admin) out.add('spy');
    out.add('resolve');
    out.add('transfer');
  }
  if (ticket.status === 'open') {
    // Sending a failed message again: the server's rule for any send (open, and theirs or an admin's).
    if (mine || admin) out.add('resend');
    if (mine) {
      for (const a of ['return', 'resolve', 'transfer', 'schedule', 'tags', 'write'] as const) out.add(a);
    } else {
      // Someone else's conversation: taking it over is an accept; an admin may also peek at it
      // and manage it, but writes only after taking it over.
      out.add('accept');
      if (admin) for (const a of ['spy', 'return', 'resolve', 'transfer'] as const) out.add(a);
    }
  }
  if (ticket.status === 'closed') out.add('reopen');
  if (can(actor, 'ticket-options:deleteTicket')) out.add('delete');
  return out;
}
