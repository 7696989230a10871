// POST /whatsappsession/{id} starts the session, PUT asks for a new QR (pairing forgotten, session
// restarted), DELETE disconnects (logout). Each answers the connection as it stands afterwards.
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAuth, requirePermission } from '../../auth/middleware.ts';
import { parseId, parseQuery } from '../../http/validate.ts';
import { resolveCompanyId } from '../whatsapps/access.ts';
import { getConnection } from '../whatsapps/service.ts';

const scopeSchema = z.object({ companyId: z.coerce.number().int().positive().optional() });

export function whatsappSessionsRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  const allowed = requirePermission('connections-page:actionButtons');
  const act = (action: 'start' | 'renewQr' | 'logout') => async (c: Context<AppEnv>) => {
    const id = parseId(c, 'id', 'ERR_NO_WAPP_FOUND');
    const actor = c.get('actor');
    const companyId = resolveCompanyId(actor, parseQuery(c, scopeSchema).companyId);
    await deps.sessions[action](companyId, id);
    return c.json(await getConnection(deps.db, actor, companyId, id));
  };
  return new Hono<AppEnv>()
    .post('/whatsappsession/:id', auth, allowed, act('start'))
    .put('/whatsappsession/:id', auth, allowed, act('renewQr'))
    .delete('/whatsappsession/:id', auth, allowed, act('logout'));
}
