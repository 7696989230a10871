// The business rules of the contact form (spec/02 §5-§7). Writes take the route's transaction
// (`Tx`, DESIGN §12) and the Actor, and poke the company once it commits: a contact travels with
// its tickets in the client view, and the contact list refetches on a poke.
import { AppError, type Contact, type ContactCreateInput, type ContactUpdateInput } from '@zapdesk/sync';
import { sql, type SelectQueryBuilder } from 'kysely';
import { change, emit } from '../../events/emit.ts';
import type { Actor } from '../../context.ts';
import type { Database } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { bumpVersion } from '../../sync/version.ts';
import { removeTicketMedia } from '../media/storage.ts';
import { releaseTicketChildren } from '../tickets/children.ts';
import { toContactDto } from './dto.ts';
import { findContact } from './queries.ts';

const duplicated = () => new AppError('ERR_DUPLICATED_CONTACT');

export async function getContact(db: Database, actor: Actor, contactId: number): Promise<Contact> {
  const row = await findContact(db, actor.companyId, contactId);
  if (!row) throw new AppError('ERR_NO_CONTACT_FOUND');
  return toContactDto(db, actor.companyId, row);
}

/** The list becomes exactly `extraInfo` (the form sends it whole); rows are replaced, not merged. */
async function replaceExtraInfo(db: Database, companyId: number, contactId: number, extraInfo: ContactCreateInput['extraInfo']) {
  const t = tenant(db, companyId);
  await t.deleteFrom('contactCustomFields').where('contactCustomFields.contactId', '=', contactId).execute();
  if (extraInfo.length === 0) return;
  await t.insertInto('contactCustomFields', extraInfo.map((f) => ({ contactId, name: f.name, value: f.value }))).execute();
}

/**
 * The unique (company, number) index is the judge: checking first would race with the pipeline
 * creating the same contact from an inbound message.
 */
async function guardDuplicate<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicated();
    throw err;
  }
}

export async function createContact(tx: Tx, actor: Actor, input: ContactCreateInput): Promise<Contact> {
  const { db } = tx;
  const row = await guardDuplicate(() =>
    tenant(db, actor.companyId)
      .insertInto('contacts', {
        name: input.name,
        number: input.number,
        email: input.email,
        ...(input.disableBot !== undefined ? { disableBot: input.disableBot ? 1 : 0 } : {}),
      })
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
  await replaceExtraInfo(db, actor.companyId, row.id, input.extraInfo);
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'contact', 'create', row.id, { hooks: ['contact.created'], orderKey: `contact:${row.id}` }));
  return getContact(db, actor, row.id);
}

export async function updateContact(tx: Tx, actor: Actor, contactId: number, input: ContactUpdateInput): Promise<Contact> {
  const { db } = tx;
  const current = await findContact(db, actor.companyId, contactId);
  if (!current) throw new AppError('ERR_NO_CONTACT_FOUND');
  // A new number makes the stored JID stale: the next send derives it from the number again.
  const numberChanged = input.number !== undefined && input.number !== current.number;
  await guardDuplicate(() =>
    tenant(db, actor.companyId)
      .updateTable('contacts')
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.number !== undefined ? { number: input.number } : {}),
        ...(numberChanged ? { jid: null } : {}),
        ...(input.email !== undefined ? { email: input.email } : {}),
        ...(input.disableBot !== undefined ? { disableBot: input.disableBot ? 1 : 0 } : {}),
        ...bumpVersion(),
      })
      .where('contacts.id', '=', contactId)
      .execute(),
  );
  if (input.extraInfo !== undefined) await replaceExtraInfo(db, actor.companyId, contactId, input.extraInfo);
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'contact', 'update', contactId, { hooks: ['contact.updated'], orderKey: `contact:${contactId}` }));
  return getContact(db, actor, contactId);
}

/**
 * One slice of a contact's delete, run before its write (the route repeats it in writes of their
 * own: db/slices.ts): up to `limit` messages of its tickets deleted, then up to what is left of
 * `limit` of its messages in other tickets (a group's) letting go of it; answers how many rows it
 * changed. In the delete's one write, a contact's 100,000 messages held SQLite's writer 1.45 s,
 * every company's writes waiting. Another company's contact id matches none of these rows.
 */
export async function emptyContactSlice(tx: Tx, companyId: number, contactId: number, limit: number): Promise<number> {
  const t = tenant(tx.db, companyId);
  const itsTickets = t.selectFrom('tickets').select('tickets.id').where('tickets.contactId', '=', contactId);
  // The ids first (db/slices.ts says why).
  const own = (await t.selectFrom('messages').select('messages.id').where('messages.ticketId', 'in', itsTickets).limit(limit).execute()).map((r) => r.id);
  if (own.length > 0) {
    await releaseQuotes(tx, companyId, own, itsTickets);
    await t.deleteFrom('messages').where('messages.id', 'in', own).execute();
  }
  let left = limit - own.length;
  if (left > 0) left -= await releaseSaidElsewhere(tx, companyId, contactId, left);
  if (left < limit) tx.effects.poke(companyId);
  return limit - left;
}

/** Up to `limit` of the contact's messages in other tickets (a group's) let go of it, versions bumped; answers how many. */
async function releaseSaidElsewhere(tx: Tx, companyId: number, contactId: number, limit: number): Promise<number> {
  // Through the contact's own index (messages_contact): with the company's term able to lead, the
  // planner walks every message of the company instead (EXPLAIN: its covering ticket index). The
  // unary plus keeps that term a check on each row found (db/database.ts preferPrimaryKey).
  const { rows } = await sql<{ id: number }>`SELECT id FROM messages WHERE contact_id = ${contactId} AND +company_id = ${companyId}
    AND ticket_id NOT IN (SELECT id FROM tickets WHERE company_id = ${companyId} AND contact_id = ${contactId}) LIMIT ${limit}`.execute(tx.db);
  const ids = rows.map((r) => r.id);
  if (ids.length > 0) await tenant(tx.db, companyId).updateTable('messages').set({ contactId: null, ...bumpVersion() }).where('messages.id', 'in', ids).execute();
  return ids.length;
}

/**
 * Messages of other tickets that quote one of `messages` (going with `tickets`) let go of the quote
 * with a version bump, as emptyTicketSlice does: the foreign key's own `set null` would change them
 * unseen by sync, and the chat would keep showing a quote of a message that no longer exists.
 */
async function releaseQuotes(tx: Tx, companyId: number, messages: number[] | SelectQueryBuilder<DB, 'messages', { id: number }>, tickets: number[] | SelectQueryBuilder<DB, 'tickets', { id: number }>): Promise<void> {
  await tenant(tx.db, companyId, 'check').updateTable('messages').set({ quotedMsgId: null, ...bumpVersion() }).where('messages.quotedMsgId', 'in', messages).where('messages.ticketId', 'not in', tickets).execute();
}

/** Their media folders go after the commit (a ticket's files live in a folder of its own). */
function removeMediaOf(tx: Tx, companyId: number, ticketIds: number[]): void {
  if (ticketIds.length === 0) return;
  const { mediaDir } = tx.config;
  tx.effects.afterCommit(() => Promise.all(ticketIds.map((id) => removeTicketMedia(mediaDir, companyId, id))));
}

/**
 * Rows per slice of a contact's tickets: a ticket's delete looks up ten tables that reference it, and
 * each row that hangs on it is looked up by its ticket first. Measured on SQLite, a contact's 5,000
 * tickets with a tag, tracking and more each: slices of 500 held the writer 8 ms at the median (12 ms
 * at most) and another company's writes every 5 ms waited 9-10 ms at the median, 20-47 ms at most;
 * slices of 250, 4 ms (9 ms), and the writes 6 ms at the median, 11-19 ms at most.
 */
export const TICKET_SLICE_ROWS = 250;

/**
 * One slice of a contact's delete, run after its messages are emptied (emptyContactSlice) and before
 * its write: its tickets go, up to `limit` rows per write counting what hangs on them, which goes
 * first (tickets/children.ts); answers how many rows it changed, fewer than `limit` once the contact
 * has no ticket left. In the delete's one write, a contact's 5,000 tickets held SQLite's writer
 * 80 ms with their cascades (measured here; 309 ms in an earlier audit), every company's writes
 * waiting. A delete cut short leaves whole tickets, the first ones with fewer tags, notes or
 * trackings (their messages went already): deleting the contact again finishes. Another company's
 * contact id matches nothing.
 */
export async function deleteContactTicketsSlice(tx: Tx, companyId: number, contactId: number, limit: number): Promise<number> {
  const t = tenant(tx.db, companyId);
  let left = limit;
  while (left > 0) {
    // The ids first (db/slices.ts says why), through the company's (company, contact) index.
    const tickets = (await t.selectFrom('tickets').select('tickets.id').where('tickets.contactId', '=', contactId).limit(left).execute()).map((r) => r.id);
    if (tickets.length === 0) break;
    left -= await releaseTicketChildren(tx, companyId, tickets, left);
    if (left === 0) break;
    // Nothing names these any more: each one's delete cascades only to messages that came meanwhile.
    const gone = tickets.slice(0, left);
    await t.deleteFrom('tickets').where('tickets.id', 'in', gone).execute();
    removeMediaOf(tx, companyId, gone);
    left -= gone.length;
  }
  if (left < limit) tx.effects.poke(companyId);
  return limit - left;
}

/**
 * Deletes the contact; what is left of its tickets, messages, notes and schedules goes with it
 * (foreign-key cascades; the route empties its messages and then its tickets first, a slice per
 * write: emptyContactSlice, deleteContactTicketsSlice).
 * Its messages in other tickets (a group's, where the contact spoke) stay and lose their sender:
 * nulled here with a version bump, since the foreign key's own `set null` would be invisible to sync.
 */
export async function deleteContact(tx: Tx, actor: Actor, contactId: number): Promise<void> {
  const t = tenant(tx.db, actor.companyId);
  // What the slices left: what the contact said meanwhile.
  while ((await releaseSaidElsewhere(tx, actor.companyId, contactId, 1_000)) === 1_000);
  // Its tickets first (their messages cascade with them): left to the contact's own cascade, the
  // database may null those messages' sender before deleting them, a change sync cannot see. These
  // are the tickets opened meanwhile (a few), read once; a schedule naming one lets go of it seen by
  // sync, and so does a quote of their messages in another ticket.
  const late = (await t.selectFrom('tickets').select('tickets.id').where('tickets.contactId', '=', contactId).execute()).map((r) => r.id);
  if (late.length > 0) {
    await tenant(tx.db, actor.companyId, 'check').updateTable('schedules').set({ ticketId: null, ...bumpVersion() }).where('schedules.ticketId', 'in', late).execute();
    await releaseQuotes(tx, actor.companyId, t.selectFrom('messages').select('messages.id').where('messages.ticketId', 'in', late), late);
    removeMediaOf(tx, actor.companyId, late);
  }
  await t.deleteFrom('tickets').where('tickets.contactId', '=', contactId).execute();
  const result = await t.deleteFrom('contacts').where('contacts.id', '=', contactId).executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new AppError('ERR_NO_CONTACT_FOUND');
  tx.effects.poke(actor.companyId);
  await emit(tx, change(actor.companyId, 'contact', 'delete', contactId));
}
