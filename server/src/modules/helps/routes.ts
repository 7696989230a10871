import { helpCreateSchema, helpUpdateSchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAuth, requireSuper } from '../../auth/middleware.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseId } from '../../http/validate.ts';
import { createHelp, deleteHelp, listHelps, updateHelp } from './service.ts';

// GET /helps and GET /helps/list answer the same list: the spec names both, the Help page and the
// settings tab each call one.
export function helpsRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  const helpId = (c: Parameters<typeof parseId>[0]) => parseId(c, 'id', 'ERR_NO_HELP_FOUND');
  return new Hono<AppEnv>()
    .get('/helps', auth, async (c) => c.json(await listHelps(deps.db)))
    .get('/helps/list', auth, async (c) => c.json(await listHelps(deps.db)))
    .post('/helps', auth, requireSuper, async (c) => {
      const input = await parseBody(c, helpCreateSchema);
      return c.json(await write(deps, (tx) => createHelp(tx, input)), 201);
    })
    .put('/helps/:id', auth, requireSuper, async (c) => {
      const id = helpId(c);
      const input = await parseBody(c, helpUpdateSchema);
      return c.json(await write(deps, (tx) => updateHelp(tx, id, input)));
    })
    .delete('/helps/:id', auth, requireSuper, async (c) => {
      const id = helpId(c);
      await write(deps, (tx) => deleteHelp(tx, id));
      return c.json({ message: 'Help deleted' });
    });
}
