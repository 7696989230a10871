// POST /whatsappsession/{id} starts the session, PUT asks for a new QR (pairing forgotten, session
// restarted), DELETE disconnects (logout). Each answers the connection as it stands afterwards.
// POST /whatsappsession/{id}/pairing-code {number} pairs by code instead of QR: pairing forgotten,
// session restarted asking WhatsApp for a code for that phone; answers the connection with
// `pairingCode` (e.g. "ABCD-EFGH"), which GET /whatsappsession/{id} repeats while it waits.
import { companyScopeQuerySchema } from '@zapdesk/sync';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppDeps, AppEnv } from '../../context.ts';
import { resolveCompanyId } from '../../auth/company-scope.ts';
import { requireAuth, requirePermission } from '../../auth/middleware.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import { getConnection } from '../whatsapps/service.ts';

/** The phone that will type the code: its full number with country code, digits (spaces, +, - ignored). */
export const pairingCodeSchema = z.object({
  number: z
    .string()
    .transform((v) => v.replace(/[\s()+-]/g, ''))
    .pipe(z.string().regex(/^\d{10,15}$/, 'A phone number with country code, 10 to 15 digits')),
});

export function whatsappSessionsRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  const allowed = requirePermission('connections-page:actionButtons');
  const act = (action: 'start' | 'renewQr' | 'logout') => async (c: Context<AppEnv>) => {
    const id = parseId(c, 'id', 'ERR_NO_WAPP_FOUND');
    const actor = c.get('actor');
    const companyId = await resolveCompanyId(deps.db, actor, parseQuery(c, companyScopeQuerySchema).companyId);
    await deps.sessions[action](companyId, id);
    return c.json(await getConnection(deps.db, actor, companyId, id));
  };
  const target = async (c: Context<AppEnv>) => {
    const actor = c.get('actor');
    return { actor, id: parseId(c, 'id', 'ERR_NO_WAPP_FOUND'), companyId: await resolveCompanyId(deps.db, actor, parseQuery(c, companyScopeQuerySchema).companyId) };
  };
  return new Hono<AppEnv>()
    .post('/whatsappsession/:id/pairing-code', auth, allowed, async (c) => {
      const { actor, id, companyId } = await target(c);
      const { number } = await parseBody(c, pairingCodeSchema);
      await getConnection(deps.db, actor, companyId, id);
      const pairingCode = await deps.sessions.requestPairingCode(companyId, id, number);
      return c.json({ ...(await getConnection(deps.db, actor, companyId, id)), pairingCode });
    })
    .get('/whatsappsession/:id', auth, allowed, async (c) => {
      const { actor, id, companyId } = await target(c);
      const connection = await getConnection(deps.db, actor, companyId, id);
      return c.json({ ...connection, pairingCode: (await deps.sessions.pairingCode(companyId, id)) ?? null });
    })
    .post('/whatsappsession/:id', auth, allowed, act('start'))
    .put('/whatsappsession/:id', auth, allowed, act('renewQr'))
    .delete('/whatsappsession/:id', auth, allowed, act('logout'));
}
