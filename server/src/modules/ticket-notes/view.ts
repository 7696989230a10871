// ticketNote/<id>: the notes of the tickets the user may see (admins: every ticket; others: the
// attendant scope of tickets/visibility.ts, the same rule as the REST routes). The value is the REST
// answer (dto.ts); the author's name rides along, so the author's version is folded into the note's.
import { isCompanyAdmin, type TicketNote } from '@zapdesk/sync';
import { chunk, defineView, type RowId } from '../../sync/views/types.ts';
import { loadPullViewer } from '../tickets/view.ts';
import { attendantScope } from '../tickets/visibility.ts';
import { selectNotes, toTicketNoteDto } from './dto.ts';

export const ticketNotesView = defineView({
  name: 'ticketNote',
  prefix: 'ticketNote',
  // Visibility follows the tickets and the viewer's queues and flags; the author's name rides along.
  tables: ['ticket_notes', 'tickets', 'user_queues', 'users'],
  audience: (actor) => (isCompanyAdmin(actor) ? 'admin' : `user:${actor.userId}`),
  async listVersions(ctx) {
    const { t } = ctx;
    const viewer = await loadPullViewer(ctx);
    const rows = await t
      .selectFrom('ticketNotes')
      .innerJoin('tickets', 'tickets.id', 'ticketNotes.ticketId')
      .leftJoin('users', 'users.id', 'ticketNotes.userId')
      .select(['ticketNotes.id', 'ticketNotes.version', 'users.version as authorVersion'])
      .$if(!viewer.isCompanyAdmin, (q) => q.where(attendantScope(viewer)))
      .execute();
    return rows.map((r) => ({ id: r.id, version: `${r.version}:${r.authorVersion ?? 0}` }));
  },
  async getValues({ db, actor }, ids) {
    const out: { id: RowId; value: TicketNote }[] = [];
    for (const part of chunk(ids as number[])) {
      const rows = await selectNotes(db, actor.companyId).where('ticketNotes.id', 'in', part).execute();
      for (const r of rows) out.push({ id: r.id, value: toTicketNoteDto(r) });
    }
    return out;
  },
});
