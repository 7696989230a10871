// Data functions of plans, a platform table (no company_id). The database handle comes first.
import type { Insertable, Selectable, Updateable } from 'kysely';
import { nowIso, type Database } from '../../db/database.ts';
import type { Plans } from '../../db/schema.ts';

export async function findPlanRow(db: Database, id: number) {
  return db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Plans cheapest first. `public` lists the sign-up plans; a company id lists those plus the
 * company's own plan (which may be private); `all` lists everything.
 */
export async function findPlanRows(db: Database, scope: 'all' | 'public' | { companyId: number }) {
  let query = db.selectFrom('plans').selectAll('plans');
  if (scope === 'public') query = query.where('plans.isPublic', '=', 1);
  if (typeof scope === 'object') {
    const own = db.selectFrom('companies').select('companies.planId').where('companies.id', '=', scope.companyId);
    query = query.where((eb) => eb.or([eb('plans.isPublic', '=', 1), eb('plans.id', 'in', own)]));
  }
  return query.orderBy('plans.valueCents').orderBy('plans.id').execute();
}

export async function insertPlanRow(db: Database, row: Insertable<Plans>) {
  return db.insertInto('plans').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Changes the fields given and bumps the row version; undefined when the id is unknown. */
export async function updatePlanRow(db: Database, id: number, row: Updateable<Plans>) {
  return db
    .updateTable('plans')
    .set(row)
    .set((eb) => ({ version: eb('plans.version', '+', 1), updatedAt: nowIso() }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deletePlanRow(db: Database, id: number): Promise<number> {
  const result = await db.deleteFrom('plans').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function countCompaniesOnPlan(db: Database, planId: number): Promise<number> {
  const row = await db
    .selectFrom('companies')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('planId', '=', planId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function findCompanyPlanRow(db: Database, companyId: number) {
  return db
    .selectFrom('companies')
    .innerJoin('plans', 'plans.id', 'companies.planId')
    .selectAll('plans')
    .where('companies.id', '=', companyId)
    .executeTakeFirst();
}

/** Several plans by id (the plans of a page of companies), keyed by id. */
export async function findPlanRowsByIds(db: Database, ids: number[]): Promise<Map<number, Selectable<Plans>>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('plans').selectAll().where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [r.id, r]));
}
