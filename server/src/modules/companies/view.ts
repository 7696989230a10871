// company/<id>: the actor's own company, never another, as GET /companies/{id} answers it (the one
// mapper, dto.ts): with its plan's limits and flags and its settings, so those are part of the value
// and their versions part of the row's version.
import { defineView } from '../../sync/views/types.ts';
import { findCompany } from './service.ts';

export const companyView = defineView({
  name: 'company',
  prefix: 'company',
  tables: ['companies', 'plans', 'settings'],
  audience: () => '',
  async listVersions({ db, t, actor }) {
    const [row, settings] = await Promise.all([
      db
        .selectFrom('companies')
        .leftJoin('plans', 'plans.id', 'companies.planId')
        .select(['companies.id', 'companies.version', 'plans.id as planId', 'plans.version as planVersion'])
        .where('companies.id', '=', actor.companyId)
        .executeTakeFirst(),
      t.selectFrom('settings').select(['settings.id', 'settings.version']).orderBy('settings.id').execute(),
    ]);
    if (!row) return [];
    // `7.2.3|10.1,11.4`: company version 7 on plan 2 at version 3, settings 10 and 11 at versions 1 and 4.
    const plan = `${row.version}.${row.planId ?? 0}.${row.planVersion ?? 0}`;
    return [{ id: row.id, version: `${plan}|${settings.map((s) => `${s.id}.${s.version}`).join(',')}` }];
  },
  async getValues({ db, actor }, ids) {
    const company = ids.includes(actor.companyId) ? await findCompany(db, actor.companyId) : undefined;
    return company ? [{ id: company.id, value: company }] : [];
  },
});
