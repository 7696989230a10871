import { ticketNoteCreateSchema, ticketNoteListQuerySchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAuth } from '../../auth/middleware.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import { commitAndPoke } from '../tags/commit.ts';
import { createTicketNote, deleteTicketNote, listTicketNotes } from './service.ts';

export function ticketNotesRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  return new Hono<AppEnv>()
    .get('/ticket-notes/list', auth, async (c) => c.json(await listTicketNotes(deps.db, c.get('actor'), parseQuery(c, ticketNoteListQuerySchema))))
    .on('POST', ['/ticket-notes', '/ticket-notes/'], auth, async (c) => {
      const input = await parseBody(c, ticketNoteCreateSchema);
      return c.json(await commitAndPoke(deps, c.get('actor').companyId, (trx) => createTicketNote(trx, c.get('actor'), input)), 201);
    })
    .delete('/ticket-notes/:id', auth, async (c) => {
      const noteId = parseId(c, 'id');
      await commitAndPoke(deps, c.get('actor').companyId, (trx) => deleteTicketNote(trx, c.get('actor'), noteId));
      return c.json({ message: 'Note deleted' });
    });
}
