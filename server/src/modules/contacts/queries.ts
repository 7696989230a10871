// Contacts as the pipeline, tickets and the external API need them: find-or-create by LID, JID or
// number. What the API sends of a contact is dto.ts.
import { AppError, jidUser, toDigits } from '@zapdesk/sync';
import type { Selectable } from 'kysely';
import type { Peer } from '../../channels/types.ts';
import type { Database } from '../../db/database.ts';
import type { Contacts } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';

export type ContactRow = Selectable<Contacts>;

/**
 * The number a peer is filed under. A phone number when the network gave one (or a phone-number
 * JID); otherwise the LID's digits, so a contact known only by its LID still has a unique key.
 */
export function peerNumber(peer: Peer): string | undefined {
  const pn = peer.number ? toDigits(peer.number) : toDigits(jidUser(peer.jid) ?? '');
  if (pn) return pn;
  const lid = toDigits(jidUser(peer.lid) ?? '');
  return lid || undefined;
}

/** The key the pipeline serialises a contact's work by: the LID when known (stable), else the number. */
export function peerKey(peer: Peer): string | undefined {
  return peer.lid ?? peerNumber(peer);
}

async function findByPeer(db: Database, companyId: number, peer: Peer, number: string): Promise<ContactRow | undefined> {
  const t = tenant(db, companyId);
  if (peer.lid) {
    const byLid = await t.selectFrom('contacts').selectAll().where('contacts.lid', '=', peer.lid).executeTakeFirst();
    if (byLid) return byLid;
  }
  return t.selectFrom('contacts').selectAll().where('contacts.number', '=', number).executeTakeFirst();
}

/** Rows findOrCreateContact inserted (not found): the pipeline announces them as new contacts. */
export const justCreated = new WeakSet<ContactRow>();

/**
 * Finds the contact of a peer or creates it. Stores the JID and LID it learns, and moves a
 * LID-only contact to its phone number once the network reveals it. Safe under concurrency: the
 * insert yields to a row another delivery created first (unique company + number).
 */
export async function findOrCreateContact(db: Database, companyId: number, peer: Peer, connectionId: number | null): Promise<ContactRow> {
  const number = peerNumber(peer);
  if (!number) throw new AppError('ERR_WAPP_INVALID_CONTACT', 'The sender has neither a phone number nor a LID.');
  const t = tenant(db, companyId);
  const found = await findByPeer(db, companyId, peer, number);
  if (found) return refreshContact(db, companyId, found, peer, number);
  const inserted = await t
    .insertInto('contacts', newContactValues(peer, number, connectionId))
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) {
    justCreated.add(inserted);
    return inserted;
  }
  const raced = await findByPeer(db, companyId, peer, number);
  if (!raced) throw new AppError('ERR_CREATING_CONTACT');
  return raced;
}

/** The row a peer's new contact starts as (the pipeline inserts a batch's new contacts together). */
export function newContactValues(peer: Peer, number: string, connectionId: number | null) {
  return { name: peer.name?.trim() || number, number, jid: peer.jid ?? null, lid: peer.lid ?? null, isGroup: peer.isGroup ? 1 : 0, whatsappId: connectionId };
}

/** Fills in what the network told us and the contact lacks; a name typed by an agent is kept. The pipeline calls it on rows it looked up for a whole batch. */
export async function refreshContact(db: Database, companyId: number, row: ContactRow, peer: Peer, number: string): Promise<ContactRow> {
  const patch: Partial<Pick<ContactRow, 'jid' | 'lid' | 'number' | 'name'>> = {};
  if (peer.jid && row.jid !== peer.jid) patch.jid = peer.jid;
  if (peer.lid && row.lid !== peer.lid) patch.lid = peer.lid;
  // A contact filed under its LID digits gets its real number when one arrives, unless taken.
  const lidDigits = toDigits(jidUser(row.lid) ?? '');
  const hasPhone = Boolean(peer.number || peer.jid);
  if (hasPhone && row.number !== number && row.jid === null && lidDigits !== '' && row.number === lidDigits) {
    const taken = await tenant(db, companyId).selectFrom('contacts').select('id').where('contacts.number', '=', number).executeTakeFirst();
    if (!taken) patch.number = number;
  }
  if (peer.name && (row.name === row.number || row.name === '') && peer.name.trim() !== '') patch.name = peer.name.trim();
  if (Object.keys(patch).length === 0) return row;
  const updated = await tenant(db, companyId)
    .updateTable('contacts')
    .set((eb) => ({ ...patch, updatedAt: new Date().toISOString(), version: eb('contacts.version', '+', 1) }))
    .where('contacts.id', '=', row.id)
    .returningAll()
    .executeTakeFirst();
  return updated ?? row;
}

export async function findContact(db: Database, companyId: number, contactId: number): Promise<ContactRow | undefined> {
  return tenant(db, companyId).selectFrom('contacts').selectAll().where('contacts.id', '=', contactId).executeTakeFirst();
}

/** The peer to send to: the stored JID, else the LID, else the number as a phone JID. */
export function contactPeer(row: Pick<ContactRow, 'jid' | 'lid' | 'number' | 'isGroup' | 'name'>): Peer {
  const isGroup = row.isGroup === 1;
  return {
    jid: row.jid ?? (row.lid ? undefined : `${row.number}@${isGroup ? 'g.us' : 's.whatsapp.net'}`),
    lid: row.lid ?? undefined,
    number: row.jid || !row.lid ? row.number : undefined,
    name: row.name,
    isGroup,
  };
}
