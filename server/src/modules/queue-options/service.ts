// Queue options: the numbered menu tree of a queue (spec/03 §2). An option's `option` is its 1-based
// position among its siblings, what the customer types; deleting one renumbers the rest 1..n.
// Writes take the route's `Tx` (DESIGN §12) and poke the company as an effect of it.
import { AppError, type QueueOption, type QueueOptionCreateInput, type QueueOptionUpdateInput } from '@zapdesk/sync';
import { nowIso, type Database } from '../../db/database.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { bumpVersion } from '../../sync/version.ts';
import { invalid } from '../whatsapps/access.ts';

const notFound = (what: string) => new AppError('ERR_NOT_FOUND', `No ${what} in this company.`);

async function assertOwnQueue(db: Database, companyId: number, queueId: number) {
  const row = await tenant(db, companyId).selectFrom('queues').select('queues.id').where('queues.id', '=', queueId).executeTakeFirst();
  if (!row) throw notFound(`queue ${queueId}`);
}

async function findOption(db: Database, companyId: number, id: number) {
  const row = await tenant(db, companyId).selectFrom('queueOptions').selectAll('queueOptions').where('queueOptions.id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`queue option ${id}`);
  return row;
}

function siblingsOf(db: Database, companyId: number, queueId: number, parentId: number | null) {
  const q = tenant(db, companyId).selectFrom('queueOptions').where('queueOptions.queueId', '=', queueId);
  return parentId === null ? q.where('queueOptions.parentId', 'is', null) : q.where('queueOptions.parentId', '=', parentId);
}

/** One level of the tree: the top level when parentId is -1 or absent. */
export async function listOptions(db: Database, companyId: number, queueId: number, parentId: number | undefined): Promise<QueueOption[]> {
  await assertOwnQueue(db, companyId, queueId);
  const parent = parentId === undefined || parentId === -1 ? null : parentId;
  const rows = await siblingsOf(db, companyId, queueId, parent).selectAll('queueOptions').orderBy('queueOptions.option').orderBy('queueOptions.id').execute();
  return rows.map(({ companyId: _c, ...row }) => row);
}

export async function createOption(tx: Tx, companyId: number, input: QueueOptionCreateInput): Promise<QueueOption> {
  const { db } = tx;
  await assertOwnQueue(db, companyId, input.queueId);
  const parentId = input.parentId ?? null;
  if (parentId !== null) {
    const parent = await findOption(db, companyId, parentId).catch(() => undefined);
    if (!parent || parent.queueId !== input.queueId) throw invalid('parentId', `No option ${parentId} in queue ${input.queueId}`);
  }
  const last = await siblingsOf(db, companyId, input.queueId, parentId)
    .select((eb) => eb.fn.max('queueOptions.option').as('max'))
    .executeTakeFirst();
  const row = await tenant(db, companyId)
    .insertInto('queueOptions', { queueId: input.queueId, parentId, title: input.title, message: input.message ?? null, option: Number(last?.max ?? 0) + 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  tx.effects.poke(companyId);
  const { companyId: _c, ...option } = await findOption(db, companyId, row.id);
  return option;
}

export async function updateOption(tx: Tx, companyId: number, id: number, input: QueueOptionUpdateInput): Promise<QueueOption> {
  const { db } = tx;
  await findOption(db, companyId, id);
  const values: { title?: string; message?: string | null } = {};
  if (input.title !== undefined) values.title = input.title;
  if (input.message !== undefined) values.message = input.message;
  await tenant(db, companyId)
    .updateTable('queueOptions')
    .set((eb) => ({ ...values, updatedAt: nowIso(), version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .execute();
  tx.effects.poke(companyId);
  const { companyId: _c, ...option } = await findOption(db, companyId, id);
  return option;
}

/**
 * Deletes the option with its whole subtree (the parent_id foreign key cascades), then renumbers its
 * siblings. Tickets that stood on an option of the subtree are detached first, versions bumped: the
 * foreign key's own `set null` would change them unseen by sync.
 */
export async function deleteOption(tx: Tx, companyId: number, id: number): Promise<void> {
  const { db } = tx;
  const row = await findOption(db, companyId, id);
  const t = tenant(db, companyId);
  const subtree = await findSubtree(db, companyId, id);
  await t.updateTable('tickets').set({ queueOptionId: null, ...bumpVersion() }).where('tickets.queueOptionId', 'in', subtree).execute();
  await t.deleteFrom('queueOptions').where('id', '=', id).execute();
  const siblings = await siblingsOf(db, companyId, row.queueId, row.parentId).select(['queueOptions.id', 'queueOptions.option']).orderBy('queueOptions.option').orderBy('queueOptions.id').execute();
  const now = nowIso();
  for (const [index, sibling] of siblings.entries()) {
    if (sibling.option === index + 1) continue;
    await t
      .updateTable('queueOptions')
      .set((eb) => ({ option: index + 1, updatedAt: now, version: eb('version', '+', 1) }))
      .where('id', '=', sibling.id)
      .execute();
  }
  tx.effects.poke(companyId);
}

/** The option and every option below it, level by level (a menu is a few levels deep). */
async function findSubtree(db: Database, companyId: number, id: number): Promise<number[]> {
  const all = [id];
  for (let level = [id]; level.length; ) {
    const children = await tenant(db, companyId).selectFrom('queueOptions').select('queueOptions.id').where('queueOptions.parentId', 'in', level).execute();
    level = children.map((c) => c.id);
    all.push(...level);
  }
  return all;
}
