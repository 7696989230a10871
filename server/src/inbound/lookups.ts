// The contacts and tickets a batch of deliveries needs, read with one query each per company
// instead of two lookups per delivery. Read inside the batch's transaction, so they are current
// except for what the batch itself changes: a contact is handed out until a delivery of the batch
// touches it (later deliveries of that contact, under another key, read afresh); tickets change
// only by the batch's own ticket creation, which store.ts tracks itself.
import { peerNumber, type ContactRow } from '../modules/contacts/queries.ts';
import type { Database } from '../db/database.ts';
import type { TicketRow } from '../modules/tickets/dto.ts';
import type { InboundMessage } from '../channels/types.ts';
import { selectContactsByLid, selectContactsByNumber, selectContactsTickets } from './queries.ts';

export type BatchLookups = {
  /**
   * The contact a peer is filed under (by LID, else by number, as findOrCreateContact looks);
   * 'absent' when the batch's read found none; undefined when it cannot tell (ask the database).
   */
  contact(companyId: number, peer: InboundMessage['from']): ContactRow | 'absent' | undefined;
  /** The contact's active and rating-awaiting tickets on a connection, as they were when the batch began. */
  tickets(contactId: number, connectionId: number): TicketRow[] | undefined;
  /** A delivery is working on this contact: later ones read the contact afresh. */
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

  const companies = new Map<number, { lid?: string; number?: string }[]>();
  for (const { companyId, peer } of wants) {
    let keys = companies.get(companyId);
    if (!keys) companies.set(companyId, (keys = []));
    keys.push({ lid: peer.lid, number: peerNumber(peer) });
  }
  for (const [companyId, keys] of companies) {
    const lids = [...new Set(keys.flatMap((k) => (k.lid ? [k.lid] : [])))];
    // Two lookups, not one `lid in … or number in …`: SQLite answers the OR from the company index
    // (every contact of the company) instead of the two keyed indexes. By number only for the
    // peers the LID did not find, as findOrCreateContact looks.
    const found = lids.length ? (await selectContactsByLid(db, { companyId, lids })).rows : [];
    const foundLids = new Set(found.map((c) => c.lid));
    const numbers = [...new Set(keys.flatMap((k) => (k.number && !(k.lid && foundLids.has(k.lid)) ? [k.number] : [])))];
    if (numbers.length) found.push(...(await selectContactsByNumber(db, { companyId, numbers })).rows);
    const contacts = [...new Map(found.map((c) => [c.id, c])).values()].sort((a, b) => a.id - b.id);
    if (contacts.length === 0) continue;
    // The lowest id first, as an indexed lookup returns it.
    for (const c of contacts) {
      if (c.lid && !byLid.has(`${companyId}:${c.lid}`)) byLid.set(`${companyId}:${c.lid}`, c);
      byNumber.set(`${companyId}:${c.number}`, c);
      fetched.add(c.id);
    }
    const { rows: tickets } = await selectContactsTickets(db, { companyId, contactIds: contacts.map((c) => c.id) });
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
      if (!number || !companies.has(companyId)) return undefined;
      const row = (peer.lid ? byLid.get(`${companyId}:${peer.lid}`) : undefined) ?? byNumber.get(`${companyId}:${number}`);
      if (!row) return 'absent';
      return touched.has(row.id) ? undefined : row;
    },
    tickets(contactId, connectionId) {
      if (!fetched.has(contactId)) return undefined;
      return ticketsOf.get(`${contactId}:${connectionId}`) ?? [];
    },
    touch: (contactId) => void touched.add(contactId),
  };
}
