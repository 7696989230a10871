// Company webhooks (issue 18): admins only, their own company only; each change one `write()`.
import { webhookCreateSchema, webhookDeliveriesQuerySchema, webhookUpdateSchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import { requireAdmin, requireAuth } from '../../auth/middleware.ts';
import type { AppDeps, AppEnv } from '../../context.ts';
import { inSlices } from '../../db/slices.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import { createWebhook, deleteWebhook, emptyWebhookLogSlice, getWebhook, listDeliveries, listWebhooks, testWebhook, updateWebhook } from './service.ts';

export function webhooksRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  return new Hono<AppEnv>()
    .get('/webhooks', auth, requireAdmin, async (c) => c.json(await listWebhooks(deps.db, deps.secrets, c.get('actor').companyId)))
    .get('/webhooks/:id', auth, requireAdmin, async (c) => c.json(await getWebhook(deps.db, deps.secrets, c.get('actor').companyId, parseId(c, 'id'))))
    .post('/webhooks', auth, requireAdmin, async (c) => {
      const input = await parseBody(c, webhookCreateSchema);
      // The SSRF guard resolves the name: before the write, never inside its transaction.
      await deps.webhooks.checkTarget(input.url);
      const { companyId } = c.get('actor');
      return c.json(await write(deps, (tx) => createWebhook(tx, deps.secrets, companyId, input)), 201);
    })
    .put('/webhooks/:id', auth, requireAdmin, async (c) => {
      const id = parseId(c, 'id');
      const input = await parseBody(c, webhookUpdateSchema);
      if (input.url !== undefined) await deps.webhooks.checkTarget(input.url);
      const { companyId } = c.get('actor');
      return c.json(await write(deps, (tx) => updateWebhook(tx, deps.secrets, companyId, id, input)));
    })
    .delete('/webhooks/:id', auth, requireAdmin, async (c) => {
      const id = parseId(c, 'id');
      const { companyId } = c.get('actor');
      // Its delivery log first, a slice per write (db/slices.ts), then the webhook in a write of its own.
      // Slices of 200 rather than 500: each delivery holds its payload.
      await inSlices(deps, (tx, limit) => emptyWebhookLogSlice(tx, companyId, id, limit), 200);
      await write(deps, (tx) => deleteWebhook(tx, companyId, id));
      return c.json({ message: 'Webhook deleted.' });
    })
    .post('/webhooks/:id/test', auth, requireAdmin, async (c) => {
      const id = parseId(c, 'id');
      const { companyId } = c.get('actor');
      return c.json(await write(deps, (tx) => testWebhook(tx, companyId, id)), 202);
    })
    .get('/webhooks/:id/deliveries', auth, requireAdmin, async (c) => {
      const id = parseId(c, 'id');
      const { limit } = parseQuery(c, webhookDeliveriesQuerySchema);
      return c.json({ deliveries: await listDeliveries(deps.db, c.get('actor').companyId, id, limit) });
    });
}
