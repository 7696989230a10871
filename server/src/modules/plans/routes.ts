import { planCreateSchema, planUpdateSchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAuth, requireSuper } from '../../auth/middleware.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseId } from '../../http/validate.ts';
import { createPlan, deletePlan, getCompanyPlan, getPlan, listPlans, listPublicPlans, updatePlan } from './service.ts';

// Static paths come before `/plans/:id`, which would otherwise answer them.
export function plansRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  return new Hono<AppEnv>()
    .get('/plans/list', async (c) => c.json(await listPublicPlans(deps.db)))
    .get('/plans/all', auth, async (c) => c.json(await listPlans(deps.db, c.get('actor'))))
    .post('/plans', auth, requireSuper, async (c) => {
      const values = await parseBody(c, planCreateSchema);
      return c.json(await write(deps, (tx) => createPlan(tx, values)), 201);
    })
    .get('/plans/:id', auth, async (c) => {
      const id = parseId(c, 'id', 'ERR_NO_PLAN_FOUND');
      return c.json(await getPlan(deps.db, c.get('actor'), id));
    })
    .put('/plans/:id', auth, requireSuper, async (c) => {
      const id = parseId(c, 'id', 'ERR_NO_PLAN_FOUND');
      const values = await parseBody(c, planUpdateSchema);
      return c.json(await write(deps, (tx) => updatePlan(tx, id, values)));
    })
    .delete('/plans/:id', auth, requireSuper, async (c) => {
      const id = parseId(c, 'id', 'ERR_NO_PLAN_FOUND');
      await write(deps, (tx) => deletePlan(tx, id));
      return c.json({ message: 'Plan deleted' });
    })
    .get('/companies/listPlan/:companyId', auth, async (c) => {
      const companyId = parseId(c, 'companyId', 'ERR_NO_COMPANY_FOUND');
      return c.json(await getCompanyPlan(deps.db, c.get('actor'), companyId));
    });
}
