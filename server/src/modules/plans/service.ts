// Plans: the super-admin manages them; sign-up lists the public ones; every company reads its own.
// Writes take the route's transaction (`tx`, db/write.ts). A plan's limits and flags are part of
// every synced company/<id> on it (companies/view.ts), so changing a plan pokes everyone.
import { AppError, type Plan, type PlanValues } from '@zapdesk/sync';
import { resolveCompanyId } from '../../auth/company-scope.ts';
import type { Actor } from '../../context.ts';
import type { Database } from '../../db/database.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.ts';
import type { Tx } from '../../db/write.ts';
import { toNewPlanRow, toPlanDto, toPlanRow } from './dto.ts';
import { countCompaniesOnPlan, deletePlanRow, findCompanyPlanRow, findPlanRow, findPlanRows, insertPlanRow, updatePlanRow } from './queries.ts';

type Reader = Pick<Actor, 'companyId' | 'super'>;

/** The plans offered at sign-up. */
export async function listPublicPlans(db: Database): Promise<Plan[]> {
  return (await findPlanRows(db, 'public')).map(toPlanDto);
}

/** Every plan for the super-admin; for a company, the public plans and its own (a private plan stays private). */
export async function listPlans(db: Database, actor: Reader): Promise<Plan[]> {
  const rows = await findPlanRows(db, actor.super ? 'all' : { companyId: actor.companyId });
  return rows.map(toPlanDto);
}

export async function getPlan(db: Database, actor: Reader, id: number): Promise<Plan> {
  const row = await findPlanRow(db, id);
  if (!row) throw new AppError('ERR_NO_PLAN_FOUND');
  if (actor.super || row.isPublic === 1) return toPlanDto(row);
  const own = await findCompanyPlanRow(db, actor.companyId);
  if (own?.id !== id) throw new AppError('ERR_NO_PLAN_FOUND');
  return toPlanDto(row);
}

// The unique and foreign-key errors below end the write (on PostgreSQL the transaction is aborted
// anyway): each becomes its AppError and nothing is queried after it. A new plan or a deleted one
// is on no company, so neither pokes anyone.

export async function createPlan(tx: Tx, values: PlanValues): Promise<Plan> {
  try {
    return toPlanDto(await insertPlanRow(tx.db, toNewPlanRow(values)));
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('ERR_PLAN_DUPLICATED');
    throw err;
  }
}

export async function updatePlan(tx: Tx, id: number, values: Partial<PlanValues>): Promise<Plan> {
  let row;
  try {
    row = await updatePlanRow(tx.db, id, toPlanRow(values));
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('ERR_PLAN_DUPLICATED');
    throw err;
  }
  if (!row) throw new AppError('ERR_NO_PLAN_FOUND');
  tx.effects.pokeAll();
  return toPlanDto(row);
}

/** A plan some company is on cannot go; the foreign key backs the check up against a racing sign-up. */
export async function deletePlan(tx: Tx, id: number): Promise<void> {
  if (!(await findPlanRow(tx.db, id))) throw new AppError('ERR_NO_PLAN_FOUND');
  if ((await countCompaniesOnPlan(tx.db, id)) > 0) throw new AppError('ERR_PLAN_IN_USE');
  try {
    await deletePlanRow(tx.db, id);
  } catch (err) {
    if (isForeignKeyViolation(err)) throw new AppError('ERR_PLAN_IN_USE');
    throw err;
  }
}

/** A company's plan with its flags. Another company's id reads as unknown, so ids do not leak. */
export async function getCompanyPlan(db: Database, actor: Reader, companyId: number): Promise<Plan> {
  await resolveCompanyId(db, actor, companyId);
  const row = await findCompanyPlanRow(db, companyId);
  if (!row) throw new AppError('ERR_NO_PLAN_FOUND');
  return toPlanDto(row);
}
