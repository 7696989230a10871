// The contacts and tickets a batch of deliveries needs, read with one query each per company
// instead of two lookups per delivery. Read inside the batch's transaction, so they are current
// except for what earlier deliveries of the same batch change: those only ever change their own
// contact (and its tickets), so a row is handed out only while no delivery of the batch has
// touched that contact yet; after that the delivery reads afresh.
import { peerNumber, type ContactRow } from '../modules/contacts/queries.ts';
import type { Database } from '../db/database.ts';
import { tenant } from '../db/tenant.ts';
import type { TicketRow } from '../modules/tickets/dto.ts';
import type { InboundMessage } from '../channels/types.ts';

export type BatchLookups = {
  /** The contact a peer is filed under (by LID, else by number, as findOrCreateContact looks). */
  contact(companyId: number, peer: InboundMessage['from']): ContactRow | undefined;
  /** The contact's active and rating-awaiting tickets on a connection, when read with the batch. */
  tickets(contactId: number, connectionId: number): TicketRow[] | undefined;
  /** A delivery is working on this contact: later ones read it afresh. */
  touch(contactId: number): void;
};

type Want = { companyId: number; peer: InboundMessage['from'] };

export const NO_LOOKUPS: BatchLookups = { contact: () => undefined, tickets: () => undefined, touch: () => undefined };

export async function lookUpBatch(db: Database, wants: Want[]): Promise<BatchLookups> {
  const byLid = new Map<string, ContactRow>();
  const byNumber = new Map<string, ContactRow>();
  const ticketsOf = new Map<string, TicketRow[]>();
  const fetched = new Set<number>();
  const touched = new Set<number>();

  const companies = new Map<number, { lids: Set<string>; numbers: Set<string> }>();
  for (const { companyId, peer } of wants) {
    let keys = companies.get(companyId);
    if (!keys) companies.set(companyId, (keys = { lids: new Set(), numbers: new Set() }));
    if (peer.lid) keys.lids.add(peer.lid);
    const number = peerNumber(peer);
    if (number) keys.numbers.add(number);
  }
  for (const [companyId, { lids, numbers }] of companies) {
    if (lids.size === 0 && numbers.size === 0) continue;
    const t = tenant(db, companyId);
    const contacts = await t
      .selectFrom('contacts')
      .selectAll()
      .where((eb) => eb.or([...(lids.size ? [eb('contacts.lid', 'in', [...lids])] : []), ...(numbers.size ? [eb('contacts.number', 'in', [...numbers])] : [])]))
      .orderBy('contacts.id')
      .execute();
    if (contacts.length === 0) continue;
    // The lowest id first, as an indexed lookup returns it.
    for (const c of contacts) {
      if (c.lid && !byLid.has(`${companyId}:${c.lid}`)) byLid.set(`${companyId}:${c.lid}`, c);
      byNumber.set(`${companyId}:${c.number}`, c);
      fetched.add(c.id);
    }
    const tickets = await t
      .selectFrom('tickets')
      .selectAll('tickets')
      .where(
        'tickets.contactId',
        'in',
        contacts.map((c) => c.id),
      )
      .where((eb) => eb.or([eb('tickets.status', 'in', ['open', 'pending']), eb('tickets.awaitingRating', '=', 1)]))
      .execute();
    for (const ticket of tickets) {
      const key = `${ticket.contactId}:${ticket.whatsappId}`;
      const list = ticketsOf.get(key);
      if (list) list.push(ticket);
      else ticketsOf.set(key, [ticket]);
    }
  }

  return {
    contact(companyId, peer) {
      const number = peerNumber(peer);
      const row = (peer.lid ? byLid.get(`${companyId}:${peer.lid}`) : undefined) ?? (number ? byNumber.get(`${companyId}:${number}`) : undefined);
      return row && !touched.has(row.id) ? row : undefined;
    },
    tickets(contactId, connectionId) {
      if (!fetched.has(contactId) || touched.has(contactId)) return undefined;
      return ticketsOf.get(`${contactId}:${connectionId}`) ?? [];
    },
    touch: (contactId) => void touched.add(contactId),
  };
}
