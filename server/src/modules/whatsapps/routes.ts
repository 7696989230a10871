// Connections (spec/03): GET lists and reads, POST/PUT/DELETE change them. Each change is one
// `write()` (DESIGN §12): the service pokes as an effect; a delete is several writes (below), its
// session ended after the first.
import { companyScopeQuerySchema, whatsappCreateSchema, whatsappListQuerySchema, whatsappUpdateSchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { resolveCompanyId } from '../../auth/company-scope.ts';
import { requireAuth, requirePermission } from '../../auth/middleware.ts';
import { inSlices } from '../../db/slices.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import {
  beginConnectionDelete,
  createConnection,
  deleteConnection,
  FAIL_SLICE_ROWS,
  failQueuedSlice,
  getConnection,
  listConnections,
  releaseConnectionSlice,
  updateConnection,
  wipeConnectionKeysSlice,
} from './service.ts';

export function whatsappsRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  return new Hono<AppEnv>()
    .get('/whatsapp', auth, async (c) => {
      const query = parseQuery(c, whatsappListQuerySchema);
      const actor = c.get('actor');
      return c.json(await listConnections(deps.db, actor, await resolveCompanyId(deps.db, actor, query.companyId), query.session !== false));
    })
    .get('/whatsapp/:id', auth, async (c) => {
      const id = parseId(c, 'id', 'ERR_NO_WAPP_FOUND');
      const actor = c.get('actor');
      const query = parseQuery(c, whatsappListQuerySchema);
      return c.json(await getConnection(deps.db, actor, await resolveCompanyId(deps.db, actor, query.companyId), id, query.session !== false));
    })
    .post('/whatsapp', auth, requirePermission('connections-page:addConnection'), async (c) => {
      const input = await parseBody(c, whatsappCreateSchema);
      const actor = c.get('actor');
      const companyId = await resolveCompanyId(deps.db, actor, input.companyId);
      return c.json(await write(deps, (tx) => createConnection(tx, actor, companyId, input)), 201);
    })
    .put('/whatsapp/:id', auth, requirePermission('connections-page:editOrDeleteConnection'), async (c) => {
      const id = parseId(c, 'id', 'ERR_NO_WAPP_FOUND');
      const input = await parseBody(c, whatsappUpdateSchema);
      const actor = c.get('actor');
      const companyId = await resolveCompanyId(deps.db, actor, parseQuery(c, companyScopeQuerySchema).companyId ?? input.companyId);
      return c.json(await write(deps, (tx) => updateConnection(tx, actor, companyId, id, input)));
    })
    .delete('/whatsapp/:id', auth, requirePermission('connections-page:editOrDeleteConnection'), async (c) => {
      const id = parseId(c, 'id', 'ERR_NO_WAPP_FOUND');
      const actor = c.get('actor');
      const companyId = await resolveCompanyId(deps.db, actor, parseQuery(c, companyScopeQuerySchema).companyId);
      // Marked, then its session ended keeping its keys: from here no session starts on it, so none
      // pairs anew over the keys while they go.
      await write(deps, (tx) => beginConnectionDelete(tx, companyId, id));
      await deps.sessions.forget(id, { keepStore: true });
      // Its keys go, what waits to leave through it fails, then its rows let go of it: a slice per
      // write each (db/slices.ts); the delete's own write finds what came meanwhile.
      await inSlices(deps, (tx, limit) => wipeConnectionKeysSlice(tx, companyId, id, limit));
      await inSlices(deps, (tx, limit) => failQueuedSlice(tx, companyId, id, limit), FAIL_SLICE_ROWS);
      await inSlices(deps, (tx, limit) => releaseConnectionSlice(tx, companyId, id, limit));
      await write(deps, (tx) => deleteConnection(tx, companyId, id));
      return c.json({ message: 'Connection deleted.' });
    });
}

