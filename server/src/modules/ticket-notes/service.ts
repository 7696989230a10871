// Ticket notes (spec/02 §3, §5, §7): private remarks of the attendants on a ticket and its contact.
// A note is written and read on a ticket the actor may see; only its author or an admin deletes it.
// Writes run in the route's transaction (`Tx`, DESIGN §12) and poke the company once it commits.
import { AppError, isCompanyAdmin, type TicketNote, type TicketNoteCreateInput, type TicketNoteListQuery } from '@zapdesk/sync';
import type { Actor } from '../../context.ts';
import type { Database } from '../../db/database.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { getVisibleTicket } from '../tags/ticket-access.ts';
import { selectNotes, toTicketNoteDto } from './dto.ts';

/** The ticket (visible to the actor) and its own contact; anything else reads as not found. */
async function assertTicketAndContact(db: Database, actor: Actor, ticketId: number, contactId: number) {
  const ticket = await getVisibleTicket(db, actor, ticketId);
  if (ticket.contactId !== contactId) throw new AppError('ERR_NO_CONTACT_FOUND', 'The contact is not the contact of this ticket.');
}

export async function createTicketNote(tx: Tx, actor: Actor, input: TicketNoteCreateInput): Promise<TicketNote> {
  const { db } = tx;
  await assertTicketAndContact(db, actor, input.ticketId, input.contactId);
  const { id } = await tenant(db, actor.companyId)
    .insertInto('ticketNotes', { note: input.note, ticketId: input.ticketId, contactId: input.contactId, userId: actor.userId })
    .returning('id')
    .executeTakeFirstOrThrow();
  tx.effects.poke(actor.companyId);
  return toTicketNoteDto(await selectNotes(db, actor.companyId).where('ticketNotes.id', '=', id).executeTakeFirstOrThrow());
}

/** Newest first, as the contact drawer shows them. */
export async function listTicketNotes(db: Database, actor: Actor, query: TicketNoteListQuery): Promise<TicketNote[]> {
  await assertTicketAndContact(db, actor, query.ticketId, query.contactId);
  const rows = await selectNotes(db, actor.companyId)
    .where('ticketNotes.ticketId', '=', query.ticketId)
    .where('ticketNotes.contactId', '=', query.contactId)
    .orderBy('ticketNotes.createdAt', 'desc')
    .orderBy('ticketNotes.id', 'desc')
    .execute();
  return rows.map(toTicketNoteDto);
}

export async function deleteTicketNote(tx: Tx, actor: Actor, noteId: number): Promise<TicketNote> {
  const { db } = tx;
  const row = await selectNotes(db, actor.companyId).where('ticketNotes.id', '=', noteId).executeTakeFirst();
  if (!row) throw new AppError('ERR_NOT_FOUND', 'Note not found.');
  if (row.userId !== actor.userId && !isCompanyAdmin(actor)) throw new AppError('ERR_NO_PERMISSION', 'Only the author or an admin may delete a note.');
  await tenant(db, actor.companyId).deleteFrom('ticketNotes').where('ticketNotes.id', '=', noteId).execute();
  tx.effects.poke(actor.companyId);
  return toTicketNoteDto(row);
}
