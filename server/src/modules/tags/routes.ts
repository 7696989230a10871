import { kanbanQuerySchema, tagCreateSchema, tagListQuerySchema, tagSyncSchema, tagUpdateSchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAuth } from '../../auth/middleware.ts';
import { requirePlan } from '../../auth/plan-gate.ts';
import { inSlices } from '../../db/slices.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import { findKanbanBoard } from './kanban.ts';
import { findAllTags, findTagsPage } from './queries.ts';
import { addTicketTag, createTag, deleteTag, getTag, releaseTagSlice, removeKanbanTags, syncTicketTags, updateTag } from './service.ts';

// Tags are the company's shared vocabulary: every signed-in user may list and edit them; only the
// kanban flag is reserved (admins and supervisors) and, like the board and its lane moves
// (/ticket-tags), needs the plan's kanban. Fixed paths come before /tags/:id.
export function tagsRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  const kanbanPlan = requirePlan(deps, 'kanban');
  return new Hono<AppEnv>()
    .on('GET', ['/tags', '/tags/'], auth, async (c) => {
      const query = parseQuery(c, tagListQuerySchema);
      return c.json(await findTagsPage(deps.db, c.get('actor').companyId, query.searchParam, query.pageNumber));
    })
    .get('/tags/list', auth, async (c) => c.json(await findAllTags(deps.db, c.get('actor').companyId)))
    .get('/tags/kanban', auth, kanbanPlan, async (c) => c.json({ lista: await findAllTags(deps.db, c.get('actor').companyId, true) }))
    .post('/tags/sync', auth, async (c) => {
      const input = await parseBody(c, tagSyncSchema);
      return c.json(await write(deps, (tx) => syncTicketTags(tx, c.get('actor'), input)));
    })
    .get('/tags/:id', auth, async (c) => c.json(await getTag(deps.db, c.get('actor'), parseId(c, 'id'))))
    .on('POST', ['/tags', '/tags/'], auth, async (c) => {
      const input = await parseBody(c, tagCreateSchema);
      return c.json(await write(deps, (tx) => createTag(tx, c.get('actor'), input)), 201);
    })
    .put('/tags/:id', auth, async (c) => {
      const tagId = parseId(c, 'id');
      const input = await parseBody(c, tagUpdateSchema);
      return c.json(await write(deps, (tx) => updateTag(tx, c.get('actor'), tagId, input)));
    })
    .delete('/tags/:id', auth, async (c) => {
      const tagId = parseId(c, 'id');
      const actor = c.get('actor');
      // Its tickets let go of it first, a slice per write (db/slices.ts), then the tag in a write of its own.
      await inSlices(deps, (tx, limit) => releaseTagSlice(tx, actor.companyId, tagId, limit));
      await write(deps, (tx) => deleteTag(tx, actor, tagId));
      return c.json({ message: 'Tag deleted' });
    })
    .put('/ticket-tags/:ticketId/:tagId', auth, kanbanPlan, async (c) => {
      const ticketId = parseId(c, 'ticketId', 'ERR_NO_TICKET_FOUND');
      const tagId = parseId(c, 'tagId');
      return c.json(await write(deps, (tx) => addTicketTag(tx, c.get('actor'), ticketId, tagId)));
    })
    .delete('/ticket-tags/:ticketId', auth, kanbanPlan, async (c) => {
      const ticketId = parseId(c, 'ticketId', 'ERR_NO_TICKET_FOUND');
      return c.json(await write(deps, (tx) => removeKanbanTags(tx, c.get('actor'), ticketId)));
    })
    .get('/ticket/kanban', auth, kanbanPlan, async (c) => c.json(await findKanbanBoard(deps.db, c.get('actor'), parseQuery(c, kanbanQuerySchema))));
}
