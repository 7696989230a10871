// Tickets: read with the visibility rules, create (POST /tickets), delete. The status transitions
// of PUT /tickets/{id} are in transitions.ts.
import { randomUUID } from 'node:crypto';
import { emit, ticketEvent } from '../../events/emit.ts';
import { AppError, isCompanyAdmin, type Ticket, type TicketCreateInput } from '@zapdesk/sync';
import { sql } from 'kysely';
import type { Actor } from '../../context.ts';
import { tenant } from '../../db/tenant.ts';
import type { Reader, Tx } from '../../db/write.ts';
import { bumpVersion } from '../../sync/version.ts';
import { removeTicketMedia } from '../media/storage.ts';
import { startTracking } from '../ticket-tracking/service.ts';
import { findContact } from '../contacts/queries.ts';
import { findTicketRow, toTicketDto, type TicketRow } from './dto.ts';
import { assertCanSee, loadViewer } from './visibility.ts';

/** A ticket of the actor's company that the actor may see: 404 for another company's, 403 outside the view. */
export async function getVisibleTicket(deps: Reader, actor: Actor, ticketId: number): Promise<{ row: TicketRow }> {
  const row = await findTicketRow(deps.db, actor.companyId, ticketId);
  if (!row) throw new AppError('ERR_NO_TICKET_FOUND');
  // An admin sees every ticket of the company (visibility.ts): nothing more to read for them.
  if (!isCompanyAdmin(actor)) assertCanSee(await loadViewer(deps.db, actor), row);
  return { row };
}

export async function getTicketByUuid(deps: Reader, actor: Actor, uuid: string): Promise<Ticket> {
  const row = await tenant(deps.db, actor.companyId).selectFrom('tickets').selectAll('tickets').where('tickets.uuid', '=', uuid).executeTakeFirst();
  if (!row) throw new AppError('ERR_NO_TICKET_FOUND');
  assertCanSee(await loadViewer(deps.db, actor), row);
  return toTicketDto(deps.db, actor.companyId, row);
}

/** The connection a new ticket uses when none is named: the user's own, else the company default. */
async function pickConnection(deps: Reader, actor: Actor, whatsappId: number | null | undefined): Promise<number> {
  const t = tenant(deps.db, actor.companyId);
  if (whatsappId) {
    const found = await t.selectFrom('whatsapps').select('whatsapps.id').where('whatsapps.id', '=', whatsappId).executeTakeFirst();
    if (!found) throw new AppError('ERR_NO_WAPP_FOUND');
    return found.id;
  }
  const user = await t.selectFrom('users').select('users.whatsappId').where('users.id', '=', actor.userId).executeTakeFirst();
  if (user?.whatsappId) {
    const own = await t.selectFrom('whatsapps').select('whatsapps.id').where('whatsapps.id', '=', user.whatsappId).executeTakeFirst();
    if (own) return own.id;
  }
  const def = await t.selectFrom('whatsapps').select('whatsapps.id').orderBy('whatsapps.isDefault', 'desc').orderBy('whatsapps.id').executeTakeFirst();
  if (!def) throw new AppError('ERR_NO_DEF_WAPP_FOUND');
  return def.id;
}

/** 409 for a contact that already has an open or pending ticket: who holds it, or where it is. */
async function refuseOtherOpenTicket(deps: Reader, actor: Actor, contactId: number): Promise<void> {
  const t = tenant(deps.db, actor.companyId);
  const other = await t
    .selectFrom('tickets')
    .leftJoin('users', 'users.id', 'tickets.userId')
    .leftJoin('queues', 'queues.id', 'tickets.queueId')
    .select(['tickets.id', 'tickets.uuid', 'tickets.userId', 'tickets.queueId', 'users.name as userName', 'queues.name as queueName'])
    .where('tickets.contactId', '=', contactId)
    .where('tickets.status', 'in', ['open', 'pending'])
    .orderBy('tickets.updatedAt', 'desc')
    .executeTakeFirst();
  if (!other) return;
  if (other.userId !== null && other.userId !== actor.userId) {
    throw new AppError('ERR_OTHER_OPEN_TICKET', `${other.userName ?? 'Another user'} is already attending this contact.`, {
      details: {
        user: { id: other.userId, name: other.userName },
        queue: other.queueId === null ? null : { id: other.queueId, name: other.queueName },
        userId: other.userId,
        ticketId: other.id,
      },
    });
  }
  throw new AppError('ERR_OTHER_OPEN_TICKET', undefined, { details: { ticketId: other.id, uuid: other.uuid } });
}

export async function createTicket(tx: Tx, actor: Actor, input: TicketCreateInput): Promise<Ticket> {
  const t = tenant(tx.db, actor.companyId);
  const contact = await findContact(tx.db, actor.companyId, input.contactId);
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  if (!isCompanyAdmin(actor) && !input.queueId) throw new AppError('ERR_VALIDATION', 'queueId: choose a queue.', { issues: [{ path: 'queueId', message: 'Required' }] });
  if (input.queueId) {
    const queue = await t.selectFrom('queues').select('queues.id').where('queues.id', '=', input.queueId).executeTakeFirst();
    if (!queue) throw new AppError('ERR_NOT_FOUND', 'No queue found with this ID.');
  }
  const userId = input.userId ?? actor.userId;
  if (userId !== actor.userId) {
    const user = await t.selectFrom('users').select('users.id').where('users.id', '=', userId).executeTakeFirst();
    if (!user) throw new AppError('ERR_NO_USER_FOUND');
  }
  const whatsappId = await pickConnection(tx, actor, input.whatsappId);
  await refuseOtherOpenTicket(tx, actor, contact.id);
  const now = new Date().toISOString();
  // The unique open-ticket index decides a race with another request: the loser inserts nothing
  // (no error, so the transaction stays usable on PostgreSQL) and is told who won.
  const row = await t
    .insertInto('tickets', {
      uuid: randomUUID(),
      status: input.status,
      contactId: contact.id,
      userId: input.status === 'pending' ? (input.userId ?? null) : userId,
      queueId: input.queueId ?? null,
      whatsappId,
      isGroup: contact.isGroup,
      lastInteractionAt: now,
    })
    // The index's own predicate, spelled as in its migration: SQLite matches the index by its text.
    .onConflict((oc) => oc.columns(['companyId', 'contactId', 'whatsappId']).where(sql<boolean>`status IN ('open', 'pending')`).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!row) {
    await refuseOtherOpenTicket(tx, actor, contact.id);
    throw new AppError('ERR_OTHER_OPEN_TICKET');
  }
  await startTracking(tx.db, actor.companyId, row, { queuedAt: row.queueId ? now : null, startedAt: row.status === 'open' ? now : null });
  tx.effects.poke(actor.companyId);
  await emit(tx, ticketEvent('create', row));
  return toTicketDto(tx.db, actor.companyId, row);
}

export async function deleteTicket(tx: Tx, actor: Actor, ticketId: number): Promise<void> {
  const row = await findTicketRow(tx.db, actor.companyId, ticketId);
  if (!row) throw new AppError('ERR_NO_TICKET_FOUND');
  await detachTicket(tx, actor.companyId, ticketId);
  await tenant(tx.db, actor.companyId).deleteFrom('tickets').where('tickets.id', '=', ticketId).execute();
  const { mediaDir } = tx.config;
  tx.effects.afterCommit(() => removeTicketMedia(mediaDir, actor.companyId, ticketId));
  tx.effects.poke(actor.companyId);
  await emit(tx, ticketEvent('delete', row));
}

/**
 * One slice of a ticket's delete, run before its write (the route repeats it in writes of their own:
 * db/slices.ts): up to `limit` of its messages deleted, the messages of other tickets quoting them
 * first losing the quote with a version bump (as detachTicket does for the whole ticket); answers
 * how many it deleted. In the delete's one write, a ticket's 100,000 messages went in one 1.3 s
 * statement, the server's thread frozen meanwhile. Another company's ticket id matches none of them.
 */
export async function emptyTicketSlice(tx: Tx, companyId: number, ticketId: number, limit: number): Promise<number> {
  const t = tenant(tx.db, companyId);
  // The ids first (db/slices.ts says why).
  const ids = (await t.selectFrom('messages').select('messages.id').where('messages.ticketId', '=', ticketId).limit(limit).execute()).map((r) => r.id);
  if (ids.length === 0) return 0;
  // Found by the quote (db/tenant.ts `check`): by the company's index SQLite walked every message of
  // the company, in every slice.
  await tenant(tx.db, companyId, 'check').updateTable('messages').set({ quotedMsgId: null, ...bumpVersion() }).where('messages.ticketId', '!=', ticketId).where('messages.quotedMsgId', 'in', ids).execute();
  await t.deleteFrom('messages').where('messages.id', 'in', ids).execute();
  tx.effects.poke(companyId);
  return ids.length;
}

/**
 * What outlives the ticket and names it: schedules (their ticket) and messages of the contact's
 * other tickets quoting one of its messages. The foreign keys would null them without a version
 * bump, invisible to sync, so they are nulled here first, versions bumped.
 */
async function detachTicket(tx: Tx, companyId: number, ticketId: number) {
  const t = tenant(tx.db, companyId);
  await t.updateTable('schedules').set({ ticketId: null, ...bumpVersion() }).where('schedules.ticketId', '=', ticketId).execute();
  await t
    .updateTable('messages')
    .set({ quotedMsgId: null, ...bumpVersion() })
    .where('messages.ticketId', '!=', ticketId)
    .where('messages.quotedMsgId', 'in', t.selectFrom('messages').select('messages.id').where('messages.ticketId', '=', ticketId))
    .execute();
}
