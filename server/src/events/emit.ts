// The one seam where a write announces what changed (events/README.md). Services call
// `emit(tx, event)` once per change, inside the write: the live channels hear it after the commit
// (an effect, so a rolled-back write announces nothing), and the webhooks subscribed to it get
// their delivery rows in this same transaction. A company without webhooks costs a map look-up.
import type { Tx } from '../db/write.ts';
import { queueWebhookDeliveries } from '../webhooks/queue.ts';
import type { DomainEvent } from './types.ts';

export async function emit(tx: Tx, events: DomainEvent | DomainEvent[]): Promise<void> {
  const list = Array.isArray(events) ? events : [events];
  if (list.length === 0) return;
  tx.effects.afterCommit((app) => app.realtime.entityEvents(list));
  await queueWebhookDeliveries(tx, list);
}

/** The order key of a ticket's events (its messages and changes are delivered in order). */
export const ticketOrder = (ticketId: number) => `ticket:${ticketId}`;

type TicketState = { id: number; companyId: number; status: string; queueId: number | null; userId: number | null; whatsappId: number | null };

/**
 * A ticket's event, with the webhook events it is: created; a status change; a transfer (another
 * queue or connection, or another user while the status stays, i.e. not an accept or a close).
 */
export function ticketEvent(action: 'create' | 'update' | 'delete', after: TicketState, before?: TicketState): DomainEvent {
  const hooks: DomainEvent['hooks'] = [];
  if (action === 'create') hooks.push('ticket.created');
  if (action === 'update' && before) {
    if (before.status !== after.status) hooks.push('ticket.status_changed');
    const moved = before.queueId !== after.queueId || before.whatsappId !== after.whatsappId;
    const handedOver = before.userId !== after.userId && after.userId !== null && before.status === after.status;
    if (moved || handedOver) hooks.push('ticket.transferred');
  }
  return { companyId: after.companyId, entity: 'ticket', action, id: after.id, hooks, orderKey: ticketOrder(after.id) };
}

/** A change of one record (the common case). */
export const change = (companyId: number, entity: DomainEvent['entity'], action: DomainEvent['action'], id: number, extra: Partial<DomainEvent> = {}): DomainEvent => ({
  companyId,
  entity,
  action,
  id,
  ...extra,
});
