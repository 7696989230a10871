// Queues (spec/03): CRUD with the plan's queue limit, unique name and colour per company, the
// greeting rule and the default service hours. Writes take the route's `Tx` (DESIGN §12) and poke
// the company as an effect of it.
import { AppError, DEFAULT_QUEUE_SCHEDULES, type Queue, type QueueCreateInput, type QueueUpdateInput } from '@zapdesk/sync';
import { change, emit } from '../../events/emit.ts';
import { sql, type Updateable } from 'kysely';
import { nowIso, type Database } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Queues } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { bumpVersion } from '../../sync/version.ts';
import { assertOwnLinks, invalid, lockPlanLimits } from '../whatsapps/access.ts';
import { toQueueDto } from './dto.ts';
import { connectionsChanged } from '../../inbound/connection-context.ts';

export async function listQueues(db: Database, companyId: number): Promise<Queue[]> {
  const rows = await tenant(db, companyId)
    .selectFrom('queues')
    .selectAll('queues')
    // Queues without an order come last, then by id: the menu numbers follow this order.
    .orderBy(sql`case when ${sql.ref('queues.orderQueue')} is null then 1 else 0 end`)
    .orderBy('queues.orderQueue')
    .orderBy('queues.id')
    .execute();
  return rows.map(toQueueDto);
}

export async function getQueue(db: Database, companyId: number, id: number): Promise<Queue> {
  const row = await tenant(db, companyId).selectFrom('queues').selectAll('queues').where('queues.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('ERR_NOT_FOUND', `No queue ${id} in this company.`);
  return toQueueDto(row);
}

/** Name and colour are unique per company, compared without case ("#FF0000" is "#ff0000"). */
async function assertUnique(db: Database, companyId: number, values: { name?: string | undefined; color?: string | undefined }, exceptId?: number) {
  const taken = async (column: 'name' | 'color', value: string) => {
    let q = tenant(db, companyId).selectFrom('queues').select('queues.id').where(sql<string>`lower(${sql.ref(`queues.${column}`)})`, '=', value.toLowerCase());
    if (exceptId !== undefined) q = q.where('queues.id', '<>', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  };
  if (values.color !== undefined && (await taken('color', values.color))) throw new AppError('ERR_QUEUE_COLOR_ALREADY_EXISTS');
  if (values.name !== undefined && (await taken('name', values.name))) throw invalid('name', 'A queue with this name already exists');
}

/**
 * The greeting rule (spec/03 §5): with more than one queue the customer picks from a menu, so every
 * queue written while the company has (or will have) two or more needs a greeting.
 */
function assertGreeting(queueCount: number, greeting: string | null | undefined) {
  if (queueCount > 1 && !greeting?.trim()) throw new AppError('ERR_WAPP_GREETING_REQUIRED');
}

const countQueues = async (db: Database, companyId: number) =>
  Number((await tenant(db, companyId).selectFrom('queues').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

function rethrowUnique(err: unknown): never {
  if (isUniqueViolation(err)) throw new AppError('ERR_QUEUE_COLOR_ALREADY_EXISTS');
  throw err;
}

function toColumns(input: QueueCreateInput | QueueUpdateInput): Updateable<Queues> {
  const values: Updateable<Queues> = {};
  const copy = ['name', 'color', 'greetingMessage', 'complationMessage', 'outOfHoursMessage', 'ratingMessage', 'orderQueue', 'integrationId', 'promptId'] as const;
  for (const key of copy) if (input[key] !== undefined) (values as Record<string, unknown>)[key] = input[key];
  if (input.schedules !== undefined) values.schedules = JSON.stringify(input.schedules);
  return values;
}

export async function createQueue(tx: Tx, companyId: number, input: QueueCreateInput): Promise<Queue> {
  connectionsChanged(tx);
  const { db } = tx;
  const plan = await lockPlanLimits(tx, companyId);
  const count = await countQueues(db, companyId);
  if (plan.queues !== null && count >= plan.queues) {
    throw new AppError('ERR_NO_PERMISSION', `The plan allows ${plan.queues} queue(s); delete one or upgrade the plan to add another.`, { details: { limit: plan.queues } });
  }
  await assertUnique(db, companyId, input);
  assertGreeting(count + 1, input.greetingMessage);
  await assertOwnLinks(db, companyId, input);
  const values = { ...toColumns(input), schedules: JSON.stringify(input.schedules ?? DEFAULT_QUEUE_SCHEDULES) };
  const row = await tenant(db, companyId)
    .insertInto('queues', values as { name: string; color: string })
    .returning('id')
    .executeTakeFirstOrThrow()
    .catch(rethrowUnique);
  tx.effects.poke(companyId);
  await emit(tx, change(companyId, 'queue', 'create', row.id));
  return getQueue(db, companyId, row.id);
}

export async function updateQueue(tx: Tx, companyId: number, id: number, input: QueueUpdateInput): Promise<Queue> {
  connectionsChanged(tx);
  const { db } = tx;
  const current = await getQueue(db, companyId, id);
  await assertUnique(db, companyId, input, id);
  assertGreeting(await countQueues(db, companyId), input.greetingMessage !== undefined ? input.greetingMessage : current.greetingMessage);
  await assertOwnLinks(db, companyId, input);
  await tenant(db, companyId)
    .updateTable('queues')
    .set((eb) => ({ ...toColumns(input), updatedAt: nowIso(), version: eb('version', '+', 1) }))
    .where('id', '=', id)
    .execute()
    .catch(rethrowUnique);
  tx.effects.poke(companyId);
  await emit(tx, change(companyId, 'queue', 'update', id));
  return getQueue(db, companyId, id);
}

/**
 * One slice of a queue's delete, run before its write (the route repeats it in writes of their own:
 * db/slices.ts): up to `limit` of its tickets leave it (and its option), versions bumped; answers how
 * many. In the delete's one write, a queue of 50,000 tickets held SQLite's writer for 0.55-0.65 s,
 * every company's traffic waiting. Another company's queue id matches none of its tickets.
 */
export async function releaseQueueSlice(tx: Tx, companyId: number, id: number, limit: number): Promise<number> {
  const t = tenant(tx.db, companyId);
  // The ids first (db/slices.ts says why).
  const ids = (await t.selectFrom('tickets').select('tickets.id').where('tickets.queueId', '=', id).limit(limit).execute()).map((r) => r.id);
  if (ids.length === 0) return 0;
  await t.updateTable('tickets').set({ queueId: null, queueOptionId: null, ...bumpVersion() }).where('tickets.id', 'in', ids).execute();
  tx.effects.poke(companyId);
  return ids.length;
}

/**
 * Deletes a queue; its options, user and connection links go with it, tickets keep no queue. The
 * synced rows that show the queue (tickets, with their option of it, connections' transfer queue
 * and prompts) are detached here first, versions bumped: the foreign key's own `set null` would change
 * them unseen by sync.
 */
export async function deleteQueue(tx: Tx, companyId: number, id: number): Promise<void> {
  connectionsChanged(tx);
  const t = tenant(tx.db, companyId);
  await getQueue(tx.db, companyId, id);
  await t.updateTable('tickets').set({ queueId: null, ...bumpVersion() }).where('tickets.queueId', '=', id).execute();
  const options = t.selectFrom('queueOptions').select('queueOptions.id').where('queueOptions.queueId', '=', id);
  await t.updateTable('tickets').set({ queueOptionId: null, ...bumpVersion() }).where('tickets.queueOptionId', 'in', options).execute();
  await t.updateTable('whatsapps').set({ transferQueueId: null, ...bumpVersion() }).where('whatsapps.transferQueueId', '=', id).execute();
  // A prompt of the queue is left without one (prompts/README.md): its edit asks for a queue again.
  await t.updateTable('prompts').set({ queueId: null, ...bumpVersion() }).where('prompts.queueId', '=', id).execute();
  await t.deleteFrom('queues').where('id', '=', id).execute();
  tx.effects.poke(companyId);
  await emit(tx, change(companyId, 'queue', 'delete', id));
}
