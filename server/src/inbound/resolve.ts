// The first two steps of storing a batch (store.ts): each delivery's contact, then its ticket. The
// batch's new contacts and new tickets go in with one insert each per company: on SQLite every
// insert statement into a table with a full-text index or triggers also writes out the index's
// pending terms, so one statement per row costs a segment per row. A row the insert refused (a
// number another delivery of the batch took, another instance's ticket) is settled the one-by-one
// way, which yields to the row that exists.
import { randomUUID } from 'node:crypto';
import { AppError } from '@zapdesk/sync';
import type { Database } from '../db/database.ts';
import { tenant } from '../db/tenant.ts';
import { findOrCreateContact, justCreated, newContactValues, peerNumber, refreshContact, type ContactRow } from '../modules/contacts/queries.ts';
import type { TicketRow } from '../modules/tickets/dto.ts';
import { startTracking, startTrackings } from '../modules/ticket-tracking/service.ts';
import type { BatchLookups } from './lookups.ts';
import { insertPendingTicket, selectContactTickets } from './queries.ts';
import type { ConnectionRow, Delivery } from './store.ts';

export type Draft = { delivery: Delivery; contact?: ContactRow; ticket?: TicketRow; waiting?: TicketRow; created: boolean };

/**
 * Sets each draft's contact: found (and refreshed) or created. Contacts the batch's read did not
 * find are created together; the others one by one. Answers the ids of the contacts it created.
 */
export async function resolveContacts(db: Database, drafts: Draft[], lookups: BatchLookups): Promise<Set<number>> {
  const misses: Draft[] = [];
  const created = new Set<number>();
  for (const draft of drafts) {
    const { connection, msg } = draft.delivery;
    const known = lookups.contact(connection.companyId, msg.from);
    const number = peerNumber(msg.from);
    if (known === 'absent') misses.push(draft);
    else if (known === undefined || !number) {
      draft.contact = await findOrCreateContact(db, connection.companyId, msg.from, connection.id);
      if (justCreated.has(draft.contact)) created.add(draft.contact.id);
    }
    else draft.contact = await refreshContact(db, connection.companyId, known, msg.from, number);
    if (draft.contact) lookups.touch(draft.contact.id);
  }
  for (const [companyId, group] of groupBy(misses, (d) => d.delivery.connection.companyId)) {
    const values = new Map<string, ReturnType<typeof newContactValues>>();
    for (const { delivery } of group) {
      const number = peerNumber(delivery.msg.from);
      if (number && !values.has(number)) values.set(number, newContactValues(delivery.msg.from, number, delivery.connection.id));
    }
    const rows = values.size ? await tenant(db, companyId).insertInto('contacts', [...values.values()]).onConflict((oc) => oc.doNothing()).returningAll().execute() : [];
    const byNumber = new Map(rows.map((r) => [r.number, r]));
    for (const r of rows) {
      created.add(r.id);
      lookups.touch(r.id);
    }
    const handedOut = new Set<number>();
    for (const draft of group) {
      const { connection, msg } = draft.delivery;
      const number = peerNumber(msg.from);
      const row = number ? byNumber.get(number) : undefined;
      if (row && number) {
        // A second delivery of the new contact (under another key) may carry what the first lacked.
        draft.contact = handedOut.has(row.id) ? await refreshContact(db, companyId, row, msg.from, number) : row;
        byNumber.set(number, draft.contact);
        handedOut.add(row.id);
      } else {
        draft.contact = await findOrCreateContact(db, companyId, msg.from, connection.id);
        if (justCreated.has(draft.contact)) created.add(draft.contact.id);
      }
    }
  }
  return created;
}

/** Sets each draft's ticket: the active one, the closed one a rating reply answers, or a new pending one. */
export async function resolveTickets(db: Database, drafts: Draft[], lookups: BatchLookups, newContacts: Set<number>): Promise<void> {
  const known = new Map<string, { active?: TicketRow; waiting?: TicketRow }>();
  const needs: Draft[] = [];
  for (const draft of drafts) {
    const { connection, msg, rated } = draft.delivery;
    const contact = draft.contact!;
    const key = `${contact.id}:${connection.id}`;
    let found = known.get(key);
    if (!found) {
      const rows = newContacts.has(contact.id) ? [] : (lookups.tickets(contact.id, connection.id) ?? (await selectContactTickets(db, { companyId: connection.companyId, contactId: contact.id, connectionId: connection.id })).rows);
      known.set(key, (found = pickTickets(rows)));
    }
    draft.waiting = found.waiting;
    if (found.waiting && !msg.fromMe && rated !== undefined) draft.ticket = found.waiting;
    else if (found.active) draft.ticket = found.active;
    else {
      needs.push(draft);
      // The new ticket becomes the contact's latest there: no later message answers the old one's rating.
      found.waiting = undefined;
    }
  }
  for (const [companyId, group] of groupBy(needs, (d) => d.delivery.connection.companyId)) {
    const now = new Date().toISOString();
    const values = new Map<string, { uuid: string; status: string; contactId: number; whatsappId: number; isGroup: number; lastInteractionAt: string }>();
    for (const { delivery, contact } of group) {
      const key = `${contact!.id}:${delivery.connection.id}`;
      if (!values.has(key)) values.set(key, { uuid: randomUUID(), status: 'pending', contactId: contact!.id, whatsappId: delivery.connection.id, isGroup: contact!.isGroup, lastInteractionAt: now });
    }
    const rows = await tenant(db, companyId).insertInto('tickets', [...values.values()]).onConflict((oc) => oc.doNothing()).returningAll().execute();
    const byKey = new Map(rows.map((r) => [`${r.contactId}:${r.whatsappId}`, r]));
    // Their tracking rows in one insert too.
    await startTrackings(db, companyId, rows);
    const handedOut = new Set<number>();
    for (const draft of group) {
      const { connection } = draft.delivery;
      const key = `${draft.contact!.id}:${connection.id}`;
      const row = byKey.get(key);
      if (row) {
        draft.ticket = row;
        draft.created = !handedOut.has(row.id);
        handedOut.add(row.id);
      } else {
        ({ ticket: draft.ticket, created: draft.created } = await createTicket(db, connection, draft.contact!));
        byKey.set(key, draft.ticket);
        handedOut.add(draft.ticket.id);
      }
      known.get(key)!.active = draft.ticket;
    }
  }
}

/**
 * Of the contact's tickets on a connection that are active or await a rating: the active (open or
 * pending) one, and the closed one waiting for a rating when it is the contact's latest there.
 */
function pickTickets(rows: TicketRow[]): { active?: TicketRow; waiting?: TicketRow } {
  // Sorted here: an ORDER BY id LIMIT lets SQLite walk the whole table by rowid instead of the
  // (company, contact, connection) index; the rows of one contact are few.
  const sorted = rows.toSorted((a, b) => b.id - a.id);
  const latest = sorted[0];
  return {
    active: sorted.find((r) => r.status !== 'closed'),
    waiting: latest && latest.status === 'closed' && latest.awaitingRating === 1 ? latest : undefined,
  };
}

/** A new pending ticket; when another instance made one first (the unique active-ticket index), that one. */
async function createTicket(db: Database, connection: ConnectionRow, contact: ContactRow): Promise<{ ticket: TicketRow; created: boolean }> {
  const { rows } = await insertPendingTicket(db, {
    companyId: connection.companyId,
    uuid: randomUUID(),
    contactId: contact.id,
    connectionId: connection.id,
    isGroup: contact.isGroup,
    now: new Date().toISOString(),
  });
  const inserted = rows[0];
  if (!inserted) {
    const { active } = pickTickets((await selectContactTickets(db, { companyId: connection.companyId, contactId: contact.id, connectionId: connection.id })).rows);
    if (active) return { ticket: active, created: false };
    throw new AppError('ERR_CREATING_TICKET');
  }
  await startTracking(db, connection.companyId, inserted);
  return { ticket: inserted, created: true };
}

export function groupBy<T, K>(items: T[], keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
