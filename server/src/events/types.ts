// What a write announces once per change (events/README.md): the company, the live channel's
// entity, the action and the row's id. The live channels (realtime/channels.ts) render the record
// after the commit for the sockets that joined; webhooks (webhooks/queue.ts) copy the events a
// company subscribed to into delivery rows inside the same transaction.
import type { WebhookEvent } from '@zapdesk/sync';

/**
 * The per-company live channels (spec/01 §7, spec/02 socket events, spec/03 §7 "Live channels"):
 * `company-{companyId}-{entity}`, and `company-{companyId}-ContactListItem-{listId}` per list.
 * `payment` is the billing event (its data is the event itself, not a record).
 */
export const LIVE_ENTITIES = [
  'whatsapp',
  'whatsappSession',
  'user',
  'chat',
  'ticket',
  'appMessage',
  'contact',
  'file',
  'prompt',
  'queueIntegration',
  'queue',
  'ContactList',
  'ContactListItem',
  'campaign',
  'payment',
] as const;
export type LiveEntity = (typeof LIVE_ENTITIES)[number];

export type EventAction = 'create' | 'update' | 'delete';

export type DomainEvent = {
  companyId: number;
  entity: LiveEntity;
  action: EventAction;
  id: number;
  /** ContactListItem: its list (the per-list channel). */
  listId?: number;
  /** The webhook events this change is (a ticket update may be a status change and a transfer). */
  hooks?: WebhookEvent[];
  /** Webhook deliveries with the same key are made in order (a ticket's messages and changes). */
  orderKey?: string;
  /** Users who may hear it (a chat's members, read before it was deleted); unset: every joined admin. */
  audience?: number[];
  /** A record given whole (payment: the billing event); otherwise it is rendered from the row. */
  data?: unknown;
  /**
   * A batch (an import's 1,000 rows): the same action on these rows, announced in one live message
   * `{action, <entity>s: [records]}` and as one webhook delivery per record; `id` is the first.
   */
  batch?: number[];
};

/** The key of the live event's record in the message (spec: `{action:'update', whatsapp}`, `{action:'delete', whatsappId}`). */
export const recordKey = (entity: LiveEntity): string => (entity === 'appMessage' ? 'message' : entity);

/** The key of a batch's records: `contacts`, `ContactListItems`. */
export const recordsKey = (entity: LiveEntity): string => `${recordKey(entity)}s`;
