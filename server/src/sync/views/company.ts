// company/<id>: the actor's own company with its plan's limits and flags. Never another company.
import type { SyncedCompany } from '@zapdesk/sync/keys';
import { defineView, parseJson } from './types.ts';
import { toPlanFlags } from '../../modules/plans/dto.ts';

export const companyView = defineView({
  name: 'company',
  prefix: 'company',
  tables: ['companies', 'plans'],
  audience: () => '',
  async listVersions({ db, actor }) {
    const row = await db
      .selectFrom('companies')
      .leftJoin('plans', 'plans.id', 'companies.planId')
      .select(['companies.id', 'companies.version', 'plans.id as planId', 'plans.version as planVersion'])
      .where('companies.id', '=', actor.companyId)
      .executeTakeFirst();
    // The plan is part of the value: its id and version join the company's own.
    return row ? [{ id: row.id, version: `${row.version}.${row.planId ?? 0}.${row.planVersion ?? 0}` }] : [];
  },
  async getValues({ db, actor }, ids) {
    if (!ids.includes(actor.companyId)) return [];
    const c = await db.selectFrom('companies').selectAll().where('id', '=', actor.companyId).executeTakeFirst();
    if (!c) return [];
    const p = c.planId === null ? undefined : await db.selectFrom('plans').selectAll().where('id', '=', c.planId).executeTakeFirst();
    const value: SyncedCompany = {
      id: c.id,
      name: c.name,
      email: c.email,
      phone: c.phone,
      status: c.status === 1,
      dueDate: c.dueDate,
      trialExpiration: c.trialExpiration,
      recurrence: c.recurrence,
      schedules: parseJson(c.schedules),
      plan: p
        ? {
            id: p.id,
            name: p.name,
            users: p.users,
            connections: p.connections,
            queues: p.queues,
            valueCents: p.valueCents,
            ...toPlanFlags(p),
          }
        : null,
    };
    return [{ id: c.id, value }];
  },
});
