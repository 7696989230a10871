// Queues (spec/03): any signed-in user reads them; admins change them, each change one `write()`.
import { companyScopeQuerySchema, queueCreateSchema, queueUpdateSchema } from '@zapdesk/sync';
import { Hono, type Context } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { resolveCompanyId } from '../../auth/company-scope.ts';
import { requireAdmin, requireAuth } from '../../auth/middleware.ts';
import { inSlices } from '../../db/slices.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import { createQueue, deleteQueue, getQueue, listQueues, releaseQueueSlice, updateQueue } from './service.ts';

// Any signed-in user reads the queues (ticket filters, transfer dialog); only admins change them.
export function queuesRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  const companyOf = (c: Context<AppEnv>, requested?: number) =>
    resolveCompanyId(deps.db, c.get('actor'), requested ?? parseQuery(c, companyScopeQuerySchema).companyId);
  return new Hono<AppEnv>()
    .get('/queue', auth, async (c) => c.json(await listQueues(deps.db, await companyOf(c))))
    .get('/queue/:id', auth, async (c) => {
      const id = parseId(c, 'id');
      return c.json(await getQueue(deps.db, await companyOf(c), id));
    })
    .post('/queue', auth, requireAdmin, async (c) => {
      const input = await parseBody(c, queueCreateSchema);
      const companyId = await companyOf(c, input.companyId);
      return c.json(await write(deps, (tx) => createQueue(tx, companyId, input)), 201);
    })
    .put('/queue/:id', auth, requireAdmin, async (c) => {
      const id = parseId(c, 'id');
      const input = await parseBody(c, queueUpdateSchema);
      const companyId = await companyOf(c, input.companyId);
      return c.json(await write(deps, (tx) => updateQueue(tx, companyId, id, input)));
    })
    .delete('/queue/:id', auth, requireAdmin, async (c) => {
      const id = parseId(c, 'id');
      const companyId = await companyOf(c);
      // Its tickets leave it first, a slice per write (db/slices.ts), then the queue in a write of its own.
      await inSlices(deps, (tx, limit) => releaseQueueSlice(tx, companyId, id, limit));
      await write(deps, (tx) => deleteQueue(tx, companyId, id));
      return c.json({ message: 'Queue deleted.' });
    });
}
