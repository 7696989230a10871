// The automation chain's write for one stored message (DESIGN §5: flows, then the queue menu,
// business hours, assistants). It runs in a write of its own after the message's commit, so the
// ticket the delivery stored may have moved meanwhile: an agent accepted or closed it, a flow's due
// timer handed it over to a queue, an assistant's turn moved it. The chain therefore reads the
// ticket again at its start, locked for this write (PostgreSQL: the runtime's order, the ticket
// first), and acts on that row only; on the row the delivery saw, a message typed just
// before a flow's hand-over got the queue menu on top of it, and a phrase written as an agent took
// the ticket started a flow in the agent's conversation.
import type { Tx } from '../db/write.ts';
import { takeInboundForFlow, type FlowInbound } from '../flows-runtime/runtime.ts';
import type { ContactRow } from '../modules/contacts/queries.ts';
import { runAutomation, wantsAutomation } from './automation.ts';
import type { ConnectionContext } from './connection-context.ts';
import { lockTicketRow, type TicketRow } from '../modules/tickets/dto.ts';

export type ChainInput = {
  context: ConnectionContext;
  /** The ticket as the delivery stored it: only its id is trusted. */
  ticket: TicketRow;
  contact: ContactRow;
  messageId: number;
  body: string;
  media?: FlowInbound['media'];
  now: Date;
};

export async function runInboundChain(tx: Tx, input: ChainInput): Promise<void> {
  const { context, contact, messageId, body, now } = input;
  const companyId = input.ticket.companyId;
  // Every runtime write locks the ticket row first.
  const ticket = await lockTicketRow(tx, companyId, input.ticket.id);
  if (!ticket || !wantsAutomation({ ticket, contact })) return;
  // Flows come first (DESIGN §5): a running flow, or a phrase campaign that starts one, takes the message.
  if (await takeInboundForFlow(tx, { ticket, connectionId: context.connection.id, messageId, body, ...(input.media ? { media: input.media } : {}), now })) return;
  await runAutomation(tx, { connection: context.connection, queues: context.queues, ticket, contact, settings: context.settings, body, messageId, now });
}
