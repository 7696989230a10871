// Automatic messages (bot menus, greetings, notes, rating requests) are queued like an agent's, in
// the transaction of the work that caused them, so they leave only if that work commits. A ticket
// without a connection (or an empty text) simply gets none: they never fail that work.
import type { Tx } from '../db/write.ts';
import type { MessageRow } from '../modules/messages/dto.ts';
import { queueTicketMessage } from '../modules/messages/send.ts';
import type { TicketRow } from '../modules/tickets/dto.ts';

export async function queueAutoReply(tx: Tx, ticket: TicketRow, body: string): Promise<MessageRow | undefined> {
  if (body.trim() === '' || ticket.whatsappId === null) return undefined;
  return queueTicketMessage(tx, ticket, { body });
}
