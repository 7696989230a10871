import { queueOptionCreateSchema, queueOptionListQuerySchema, queueOptionUpdateSchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAdmin, requireAuth } from '../../auth/middleware.ts';
import { notifySyncedChange } from '../../channels/notify.ts';
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
      const option = await deps.db.transaction().execute((trx) => createOption(trx, companyId, input));
      notifySyncedChange(deps, companyId);
      return c.json(option, 201);
    })
    .put('/queue-options/:id', auth, requireAdmin, async (c) => {
      const id = parseId(c, 'id');
      const input = await parseBody(c, queueOptionUpdateSchema);
      const companyId = c.get('actor').companyId;
      const option = await deps.db.transaction().execute((trx) => updateOption(trx, companyId, id, input));
      notifySyncedChange(deps, companyId);
      return c.json(option);
    })
    .delete('/queue-options/:id', auth, requireAdmin, async (c) => {
      const id = parseId(c, 'id');
      const companyId = c.get('actor').companyId;
      await deps.db.transaction().execute((trx) => deleteOption(trx, companyId, id));
      notifySyncedChange(deps, companyId);
      return c.json({ message: 'Option deleted.' });
    });
}
