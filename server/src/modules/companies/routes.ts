import { AppError, companyCreateSchema, companySchedulesSchema, companyUpdateSchema, listQuerySchema, signupSchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { clientIp, requireAuth, requireSuper } from '../../auth/middleware.ts';
import { hashPassword } from '../../auth/password.ts';
import { inSlices } from '../../db/slices.ts';
import { write } from '../../db/write.ts';
import { wakeInvoices } from '../../jobs/invoices.ts';
import { parseBody, parseId, parseQuery } from '../../http/validate.ts';
import { deleteCompanyRow } from './queries.ts';
import { closeCompany, deleteCompanySlice, removeCompanyMedia } from './removal.ts';
import { signUp } from './signup.ts';
import {
  createCompany,
  getCompany,
  listCompanies,
  listCompaniesPage,
  renewCompany,
  updateCompany,
  updateCompanySchedules,
  type FirstAdmin,
} from './service.ts';

// Static paths come before `/companies/:id`. Writes that touch a due date, plan or status wake the
// invoice job (jobs/invoices.ts `wakeInvoices`). GET /companies/listPlan/{id} lives with the plans.
export function companiesRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  const companyId = (c: Parameters<typeof parseId>[0]) => parseId(c, 'id', 'ERR_NO_COMPANY_FOUND');
  return new Hono<AppEnv>()
    .post('/companies/cadastro', async (c) => {
      // Counted before validation: every attempt costs, well-formed or not. `?companyId=` is ignored.
      await deps.limiter.hit({ ip: clientIp(c, deps.config.trustedProxies) });
      // The platform's administrator closed public sign-up (SIGNUP=0): new companies come from the super-admin.
      if (!deps.config.signup) throw new AppError('ERR_USER_CREATION_DISABLED');
      const input = await parseBody(c, signupSchema);
      const passwordHash = await hashPassword(input.password);
      const created = await write(deps, (tx) => signUp(tx, input, passwordHash));
      wakeInvoices(deps);
      return c.json(created, 201);
    })
    .get('/companies/list', auth, requireSuper, async (c) => c.json(await listCompanies(deps.db)))
    .get('/companies', auth, requireSuper, async (c) => c.json(await listCompaniesPage(deps.db, parseQuery(c, listQuerySchema))))
    .post('/companies', auth, requireSuper, async (c) => {
      const input = await parseBody(c, companyCreateSchema);
      let admin: FirstAdmin | undefined;
      if (input.password) {
        const email = (input.adminEmail ?? input.email)!; // the schema requires one of them with a password
        admin = { name: input.adminName ?? input.name, email, passwordHash: await hashPassword(input.password) };
      }
      const created = await write(deps, (tx) => createCompany(tx, input, admin));
      wakeInvoices(deps);
      return c.json(created, 201);
    })
    .get('/companies/:id', auth, async (c) => c.json(await getCompany(deps.db, c.get('actor'), companyId(c))))
    .put('/companies/:id', auth, requireSuper, async (c) => {
      const id = companyId(c);
      const input = await parseBody(c, companyUpdateSchema);
      const updated = await write(deps, (tx) => updateCompany(tx, id, input));
      // A new due date, plan, recurrence or status may call for an invoice now.
      wakeInvoices(deps);
      return c.json(updated);
    })
    .delete('/companies/:id', auth, requireSuper, async (c) => {
      const id = companyId(c);
      // In steps (removal.ts): closed, emptied a slice at a time, its row deleted, its media removed.
      await write(deps, (tx) => closeCompany(tx, id));
      await inSlices(deps, (tx, limit) => deleteCompanySlice(tx, id, limit));
      await write(deps, (tx) => deleteCompanyRow(tx.db, id));
      await removeCompanyMedia(deps.config.mediaDir, id);
      return c.json({ message: 'Company deleted' });
    })
    .put('/companies/:id/schedules', auth, async (c) => {
      const id = companyId(c);
      const { schedules } = await parseBody(c, companySchedulesSchema);
      return c.json(await write(deps, (tx) => updateCompanySchedules(tx, c.get('actor'), id, schedules)));
    })
    .post('/companies/:id/renew', auth, requireSuper, async (c) => {
      const id = companyId(c);
      const renewed = await write(deps, (tx) => renewCompany(tx, id));
      wakeInvoices(deps);
      return c.json(renewed);
    });
}
