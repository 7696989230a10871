import { AppError, ticketCreateSchema, ticketListQuerySchema, ticketUpdateSchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAuth, requirePermission } from '../../auth/middleware.ts';
import { inSlices } from '../../db/slices.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import { toTicketDto } from './dto.ts';
import { findTicketsPage } from './queries.ts';
import { createTicket, deleteTicket, emptyTicketSlice, getTicketByUuid, getVisibleTicket } from './service.ts';
import { updateTicket } from './transitions.ts';
import { loadViewer } from './visibility.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Middleware per route: this sub-app is mounted at '/'.
export function ticketsRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  return new Hono<AppEnv>()
    .get('/tickets', auth, async (c) => {
      const query = parseQuery(c, ticketListQuerySchema);
      const viewer = await loadViewer(deps.db, c.get('actor'));
      return c.json(await findTicketsPage(deps.db, deps.dialect, viewer, query));
    })
    .get('/tickets/u/:uuid', auth, async (c) => {
      const uuid = c.req.param('uuid');
      if (!UUID.test(uuid)) throw new AppError('ERR_NO_TICKET_FOUND');
      return c.json(await getTicketByUuid(deps, c.get('actor'), uuid));
    })
    .get('/tickets/:id', auth, async (c) => {
      const { row } = await getVisibleTicket(deps, c.get('actor'), parseId(c, 'id', 'ERR_NO_TICKET_FOUND'));
      return c.json(await toTicketDto(deps.db, row.companyId, row));
    })
    .post('/tickets', auth, async (c) => {
      const input = await parseBody(c, ticketCreateSchema);
      const actor = c.get('actor');
      return c.json(await write(deps, (tx) => createTicket(tx, actor, input)), 201);
    })
    .put('/tickets/:id', auth, async (c) => {
      const id = parseId(c, 'id', 'ERR_NO_TICKET_FOUND');
      const input = await parseBody(c, ticketUpdateSchema);
      const actor = c.get('actor');
      return c.json(await write(deps, (tx) => updateTicket(tx, actor, id, input)));
    })
    .delete('/tickets/:id', auth, requirePermission('ticket-options:deleteTicket'), async (c) => {
      const actor = c.get('actor');
      const id = parseId(c, 'id', 'ERR_NO_TICKET_FOUND');
      // Its messages first, a slice per write (db/slices.ts), then the ticket in a write of its own.
      await inSlices(deps, (tx, limit) => emptyTicketSlice(tx, actor.companyId, id, limit));
      await write(deps, (tx) => deleteTicket(tx, actor, id));
      return c.json({ message: 'Ticket deleted' });
    });
}
