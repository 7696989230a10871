// Prompts over REST (spec/03 §7 "Prompts"; README.md). An admin's screen of a plan with the openAi
// feature: the server refuses otherwise, whatever the web shows. Each write is one transaction
// opened here (db/write.ts).
import { promptCreateSchema, promptUpdateSchema, promptUsageQuerySchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAuth, requirePermission } from '../../auth/middleware.ts';
import { requirePlan } from '../../auth/plan-gate.ts';
import { inSlices } from '../../db/slices.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import { findPromptUsage } from '../../assistants/usage-report.ts';
import { createPrompt, deletePrompt, getPrompt, listPrompts, releasePromptSlice, updatePrompt } from './service.ts';

export function promptsRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  const admin = requirePermission('drawer-admin-items:view');
  const plan = requirePlan(deps, 'openAi');
  const notFound = 'ERR_NOT_FOUND';
  return new Hono<AppEnv>()
    .on('GET', ['/prompt', '/prompt/'], auth, admin, plan, async (c) => c.json({ prompts: await listPrompts(deps.db, deps.secrets, c.get('actor')) }))
    // Before /prompt/:id. The tokens the company's AI spent (assistants/usage-report.ts).
    .get('/prompt/usage', auth, admin, plan, async (c) => c.json(await findPromptUsage(deps.db, c.get('actor').companyId, parseQuery(c, promptUsageQuerySchema).days)))
    .get('/prompt/:id', auth, admin, plan, async (c) => c.json(await getPrompt(deps.db, deps.secrets, c.get('actor'), parseId(c, 'id', notFound))))
    .on('POST', ['/prompt', '/prompt/'], auth, admin, plan, async (c) => {
      const input = await parseBody(c, promptCreateSchema);
      return c.json(await write(deps, (tx) => createPrompt(tx, deps.secrets, c.get('actor'), input)), 201);
    })
    .put('/prompt/:id', auth, admin, plan, async (c) => {
      const id = parseId(c, 'id', notFound);
      const input = await parseBody(c, promptUpdateSchema);
      return c.json(await write(deps, (tx) => updatePrompt(tx, deps.secrets, c.get('actor'), id, input)));
    })
    .delete('/prompt/:id', auth, admin, plan, async (c) => {
      const id = parseId(c, 'id', notFound);
      const actor = c.get('actor');
      // Its tickets let go of it first, a slice per write (db/slices.ts); then the prompt's own write.
      await inSlices(deps, (tx, limit) => releasePromptSlice(tx, actor.companyId, id, limit));
      await write(deps, (tx) => deletePrompt(tx, actor, id));
      return c.json({ message: 'Prompt deleted' });
    });
}
