// Queue options (spec/03 §2): the menu tree of a queue; each change is one `write()`.
import { queueOptionCreateSchema, queueOptionListQuerySchema, queueOptionUpdateSchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAdmin, requireAuth } from '../../auth/middleware.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import { createOption, deleteOption, listOptions, updateOption } from './service.ts';

// Options belong to the caller's own company (the super-admin included): the menu editor works in
// one company at a time.
export function queueOptionsRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  return new Hono<AppEnv>()
    .get('/queue-options', auth, async (c) => {
      const { queueId, parentId } = parseQuery(c, queueOptionListQuerySchema);
      return c.json(await listOptions(deps.db, c.get('actor').companyId, queueId, parentId));
    })
    .post('/queue-options', auth, requireAdmin, async (c) => {
      const input = await parseBody(c, queueOptionCreateSchema);
      const companyId = c.get('actor').companyId;
      return c.json(await write(deps, (tx) => createOption(tx, companyId, input)), 201);
    })
    .put('/queue-options/:id', auth, requireAdmin, async (c) => {
      const id = parseId(c, 'id');
      const input = await parseBody(c, queueOptionUpdateSchema);
      const companyId = c.get('actor').companyId;
      return c.json(await write(deps, (tx) => updateOption(tx, companyId, id, input)));
    })
    .delete('/queue-options/:id', auth, requireAdmin, async (c) => {
      const id = parseId(c, 'id');
      const companyId = c.get('actor').companyId;
      await write(deps, (tx) => deleteOption(tx, companyId, id));
      return c.json({ message: 'Option deleted.' });
    });
}
