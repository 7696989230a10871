// Checks shared by the connection and queue modules: plan limits under a lock, links to the company's own rows.
// (Which company a request acts on is auth/company-scope.ts.)
import { AppError, type ValidationIssue } from '@zapdesk/sync';
import { assertPlanAllows } from '../../auth/plan-gate.ts';
import { tenant } from '../../db/tenant.ts';
import type { Database } from '../../db/database.ts';
import type { Tx } from '../../db/write.ts';

export function invalid(path: string, message: string): AppError {
  const issues: ValidationIssue[] = [{ path, message }];
  return new AppError('ERR_VALIDATION', `${path}: ${message}`, { issues });
}

/**
 * The company's plan limits, read under a row lock on PostgreSQL so two concurrent creates cannot
 * both pass a count (SQLite runs write transactions one at a time already): hence a write's `Tx`.
 */
export async function lockPlanLimits(tx: Tx, companyId: number) {
  let query = tx.db
    .selectFrom('companies')
    .leftJoin('plans', 'plans.id', 'companies.planId')
    .select(['companies.id', 'plans.connections', 'plans.queues'])
    .where('companies.id', '=', companyId);
  if (tx.dialect === 'postgres') query = query.forUpdate('companies');
  const row = await query.executeTakeFirst();
  if (!row) throw new AppError('ERR_NO_COMPANY_FOUND');
  return row;
}

/** Ids among `ids` that are not rows of the company's table: linking them would cross tenants. */
export async function findForeignIds(db: Database, companyId: number, table: 'queues' | 'prompts' | 'queueIntegrations', ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await tenant(db, companyId).selectFrom(table).select(`${table}.id as id`).where(`${table}.id`, 'in', ids).execute();
  const own = new Set(rows.map((r) => (r as { id: number }).id));
  return ids.filter((id) => !own.has(id));
}

export async function assertOwnLinks(db: Database, companyId: number, links: { queueIds?: number[] | undefined; transferQueueId?: number | null | undefined; promptId?: number | null | undefined; integrationId?: number | null | undefined }) {
  // Linking a prompt or an integration needs the plan's feature; unlinking (null) never does.
  if (links.promptId) await assertPlanAllows(db, companyId, 'openAi');
  if (links.integrationId) await assertPlanAllows(db, companyId, 'integrations');
  const checks: [string, 'queues' | 'prompts' | 'queueIntegrations', number[]][] = [
    ['queueIds', 'queues', links.queueIds ?? []],
    ['transferQueueId', 'queues', links.transferQueueId ? [links.transferQueueId] : []],
    ['promptId', 'prompts', links.promptId ? [links.promptId] : []],
    ['integrationId', 'queueIntegrations', links.integrationId ? [links.integrationId] : []],
  ];
  for (const [path, table, ids] of checks) {
    const foreign = await findForeignIds(db, companyId, table, ids);
    if (foreign.length > 0) throw invalid(path, `No ${table === 'queueIntegrations' ? 'integration' : table.replace(/s$/, '')} ${foreign.join(', ')} in this company`);
  }
}
