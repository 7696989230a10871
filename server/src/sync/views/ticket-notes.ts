// ticketNote/<id>: the notes of the tickets the user may see (admins: every ticket; others: the
// attendant scope of tickets/visibility.ts, the same rule as the REST routes). The author's name
// rides along, so the author's version is folded into the note's.
import { isCompanyAdmin } from '@zapdesk/sync';
import type { SyncedTicketNote } from '@zapdesk/sync/keys';
import { attendantScope, loadViewer } from '../../modules/tickets/visibility.ts';
import { chunk, defineView, type RowId } from './types.ts';

export const ticketNotesView = defineView({
  name: 'ticketNote',
  prefix: 'ticketNote',
  // Visibility follows the tickets and the viewer's queues and flags; the author's name rides along.
  tables: ['ticket_notes', 'tickets', 'user_queues', 'users'],
  audience: (actor) => (isCompanyAdmin(actor) ? 'admin' : `user:${actor.userId}`),
  async listVersions({ db, t, actor }) {
    const viewer = await loadViewer(db, actor);
    const rows = await t
      .selectFrom('ticketNotes')
      .innerJoin('tickets', 'tickets.id', 'ticketNotes.ticketId')
      .leftJoin('users', 'users.id', 'ticketNotes.userId')
      .select(['ticketNotes.id', 'ticketNotes.version', 'users.version as authorVersion'])
      .$if(!viewer.isCompanyAdmin, (q) => q.where(attendantScope(viewer)))
      .execute();
    return rows.map((r) => ({ id: r.id, version: `${r.version}:${r.authorVersion ?? 0}` }));
  },
  async getValues({ t }, ids) {
    const out: { id: RowId; value: SyncedTicketNote }[] = [];
    for (const part of chunk(ids as number[])) {
      const rows = await t
        .selectFrom('ticketNotes')
        .leftJoin('users', 'users.id', 'ticketNotes.userId')
        .selectAll('ticketNotes')
        .select('users.name as userName')
        .where('ticketNotes.id', 'in', part)
        .execute();
      for (const r of rows) {
        out.push({
          id: r.id,
          value: {
            id: r.id,
            note: r.note,
            ticketId: r.ticketId,
            contactId: r.contactId,
            userId: r.userId,
            user: r.userId !== null && r.userName !== null ? { id: r.userId, name: r.userName } : null,
            createdAt: r.createdAt,
          },
        });
      }
    }
    return out;
  },
});
