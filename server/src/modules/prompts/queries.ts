// Data functions of prompts: the database handle (often a transaction) first, the company second;
// every query goes through the company filter (db/tenant.ts).
import type { Database } from '../../db/database.ts';
import { tenant } from '../../db/tenant.ts';
import type { PromptRow } from './dto.ts';

/** GET /prompt reads every prompt of the company at once (the spec's list has no pages); more is cut. */
export const MAX_PROMPTS = 1_000;

function selectPrompts(db: Database, companyId: number) {
  return tenant(db, companyId)
    .selectFrom('prompts')
    .leftJoin('queues', (j) => j.onRef('queues.id', '=', 'prompts.queueId').onRef('queues.companyId', '=', 'prompts.companyId'))
    .selectAll('prompts')
    .select('queues.name as queueName');
}

export async function findPrompts(db: Database, companyId: number): Promise<PromptRow[]> {
  return selectPrompts(db, companyId).orderBy('prompts.name').orderBy('prompts.id').limit(MAX_PROMPTS).execute();
}

export async function findPromptRow(db: Database, companyId: number, id: number): Promise<PromptRow | undefined> {
  return selectPrompts(db, companyId).where('prompts.id', '=', id).executeTakeFirst();
}
