// Ticket notes over REST (spec/02 §7): a write is one transaction opened here (db/write.ts).
import { ticketNoteCreateSchema, ticketNoteListQuerySchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAuth } from '../../auth/middleware.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import { createTicketNote, deleteTicketNote, listTicketNotes } from './service.ts';

export function ticketNotesRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  return new Hono<AppEnv>()
    .get('/ticket-notes/list', auth, async (c) => c.json(await listTicketNotes(deps.db, c.get('actor'), parseQuery(c, ticketNoteListQuerySchema))))
    .on('POST', ['/ticket-notes', '/ticket-notes/'], auth, async (c) => {
      const input = await parseBody(c, ticketNoteCreateSchema);
      return c.json(await write(deps, (tx) => createTicketNote(tx, c.get('actor'), input)), 201);
    })
    .delete('/ticket-notes/:id', auth, async (c) => {
      const noteId = parseId(c, 'id');
      await write(deps, (tx) => deleteTicketNote(tx, c.get('actor'), noteId));
      return c.json({ message: 'Note deleted' });
    });
}
