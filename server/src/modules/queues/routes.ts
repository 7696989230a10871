import { queueCreateSchema, queueUpdateSchema } from '@zapdesk/sync';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAdmin, requireAuth } from '../../auth/middleware.ts';
import { notifySyncedChange } from '../../channels/notify.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import { resolveCompanyId } from '../whatsapps/access.ts';
import { createQueue, deleteQueue, getQueue, listQueues, updateQueue } from './service.ts';

const scopeSchema = z.object({ companyId: z.coerce.number().int().positive().optional() });

// Any signed-in user reads the queues (ticket filters, transfer dialog); only admins change them.
export function queuesRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  const companyOf = (c: Context<AppEnv>, requested?: number) =>
    resolveCompanyId(c.get('actor'), requested ?? parseQuery(c, scopeSchema).companyId);
  return new Hono<AppEnv>()
    .get('/queue', auth, async (c) => c.json(await listQueues(deps.db, companyOf(c))))
    .get('/queue/:id', auth, async (c) => {
      const id = parseId(c, 'id');
      return c.json(await getQueue(deps.db, companyOf(c), id));
    })
    .post('/queue', auth, requireAdmin, async (c) => {
      const input = await parseBody(c, queueCreateSchema);
      const companyId = companyOf(c, input.companyId);
      const queue = await deps.db.transaction().execute((trx) => createQueue(trx, deps.dialect, companyId, input));
      notifySyncedChange(deps, companyId);
      return c.json(queue, 201);
    })
    .put('/queue/:id', auth, requireAdmin, async (c) => {
      const id = parseId(c, 'id');
      const input = await parseBody(c, queueUpdateSchema);
      const companyId = companyOf(c, input.companyId);
      const queue = await deps.db.transaction().execute((trx) => updateQueue(trx, companyId, id, input));
      notifySyncedChange(deps, companyId);
      return c.json(queue);
    })
    .delete('/queue/:id', auth, requireAdmin, async (c) => {
      const id = parseId(c, 'id');
      const companyId = companyOf(c);
      await deps.db.transaction().execute((trx) => deleteQueue(trx, companyId, id));
      notifySyncedChange(deps, companyId);
      return c.json({ message: 'Queue deleted.' });
    });
}
