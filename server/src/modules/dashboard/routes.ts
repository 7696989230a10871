// GET /dashboard, /dashboard/ticketsUsers, /dashboard/ticketsDay: admins only (spec/02 §6). The
// company is always the caller's; the `companyId` the web sends is ignored.
import { dashboardChartQuerySchema, dashboardQuerySchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAdmin, requireAuth } from '../../auth/middleware.ts';
import { parseQuery } from '../../http/validate.ts';
import { periodOfDays, resolveDashboardPeriod, serverTimeZone } from './period.ts';
import { getDashboard, getTicketsPerDay, getTicketsPerUser } from './service.ts';

export function dashboardRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  return new Hono<AppEnv>()
    .on('GET', ['/dashboard', '/dashboard/'], auth, requireAdmin, async (c) => {
      const q = parseQuery(c, dashboardQuerySchema);
      const period = resolveDashboardPeriod(q, new Date(), q.timezone ?? serverTimeZone());
      return c.json(await getDashboard(deps.db, deps.dialect, c.get('actor').companyId, period));
    })
    .get('/dashboard/ticketsUsers', auth, requireAdmin, async (c) => {
      const q = parseQuery(c, dashboardChartQuerySchema);
      const period = periodOfDays(q.initialDate, q.finalDate, q.timezone ?? serverTimeZone());
      return c.json(await getTicketsPerUser(deps.db, c.get('actor').companyId, period));
    })
    .get('/dashboard/ticketsDay', auth, requireAdmin, async (c) => {
      const q = parseQuery(c, dashboardChartQuerySchema);
      const period = periodOfDays(q.initialDate, q.finalDate, q.timezone ?? serverTimeZone());
      return c.json(await getTicketsPerDay(deps.db, deps.dialect, c.get('actor').companyId, period, { first: q.initialDate, last: q.finalDate }));
    });
}
