// Queue integrations over REST (spec/03 §7 "Queue integrations"; README.md). An admin's screen of a
// plan with the integrations feature: the server refuses otherwise. POST /queueIntegration/testSession
// belongs to the runtime (the adapters), not to this module. Each write is one transaction opened
// here (db/write.ts).
import { queueIntegrationCreateSchema, queueIntegrationQuerySchema, queueIntegrationUpdateSchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAuth, requirePermission } from '../../auth/middleware.ts';
import { requirePlan } from '../../auth/plan-gate.ts';
import { inSlices } from '../../db/slices.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import { assertWebhookTarget } from '../../webhooks/target.ts';
import { createIntegration, deleteIntegration, getIntegration, listIntegrations, releaseIntegrationSlice, updateIntegration } from './service.ts';

export function queueIntegrationsRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  const admin = requirePermission('drawer-admin-items:view');
  const plan = requirePlan(deps, 'integrations');
  // The URL an admin types is called from inside the platform's network: a loopback, private or
  // metadata address is refused here, before the write, and again at each call (webhooks/target.ts).
  const assertTarget = async (url: string | null | undefined) => {
    if (url) await assertWebhookTarget(url, { allowPrivate: deps.config.webhooks.allowPrivate }, { field: 'urlN8N', purpose: 'be called by an integration' });
  };
  return new Hono<AppEnv>()
    .on('GET', ['/queueIntegration', '/queueIntegration/'], auth, admin, plan, async (c) => {
      const query = parseQuery(c, queueIntegrationQuerySchema);
      return c.json(await listIntegrations(deps.db, deps.secrets, c.get('actor'), query.searchParam, query.pageNumber));
    })
    .on('POST', ['/queueIntegration', '/queueIntegration/'], auth, admin, plan, async (c) => {
      const input = await parseBody(c, queueIntegrationCreateSchema);
      await assertTarget(input.urlN8N);
      return c.json(await write(deps, (tx) => createIntegration(tx, deps.secrets, c.get('actor'), input)), 201);
    })
    .get('/queueIntegration/:id', auth, admin, plan, async (c) => c.json(await getIntegration(deps.db, deps.secrets, c.get('actor'), parseId(c, 'id'))))
    .put('/queueIntegration/:id', auth, admin, plan, async (c) => {
      const id = parseId(c, 'id');
      const input = await parseBody(c, queueIntegrationUpdateSchema);
      await assertTarget(input.urlN8N);
      return c.json(await write(deps, (tx) => updateIntegration(tx, deps.secrets, c.get('actor'), id, input)));
    })
    .delete('/queueIntegration/:id', auth, admin, plan, async (c) => {
      const id = parseId(c, 'id');
      const actor = c.get('actor');
      // Its tickets and sessions first, a slice per write (db/slices.ts); then the integration's own write.
      await inSlices(deps, (tx, limit) => releaseIntegrationSlice(tx, actor.companyId, id, limit));
      await write(deps, (tx) => deleteIntegration(tx, actor, id));
      return c.json({ message: 'Integration deleted' });
    });
}
