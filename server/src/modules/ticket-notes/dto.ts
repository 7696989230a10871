// The ticket note as every transport sends it (`ticketNoteSchema` in @zapdesk/sync): the REST
// answers and ticketNote/<id> of the client view read notes through selectNotes and map them here.
import type { TicketNote } from '@zapdesk/sync';
import type { Database } from '../../db/database.ts';
import { tenant } from '../../db/tenant.ts';

/** Notes of one company with their author's name; callers add the where. */
export function selectNotes(db: Database, companyId: number) {
  return tenant(db, companyId)
    .selectFrom('ticketNotes')
    .leftJoin('users', (j) => j.onRef('users.id', '=', 'ticketNotes.userId').on('users.companyId', '=', companyId))
    .selectAll('ticketNotes')
    .select(['users.name as userName']);
}

export type NoteRow = Awaited<ReturnType<ReturnType<typeof selectNotes>['executeTakeFirstOrThrow']>>;

export function toTicketNoteDto(r: NoteRow): TicketNote {
  return {
    id: r.id,
    note: r.note,
    ticketId: r.ticketId,
    contactId: r.contactId,
    userId: r.userId,
    user: r.userId !== null && r.userName !== null ? { id: r.userId, name: r.userName } : null,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}
