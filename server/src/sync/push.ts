// POST /sync/push: Replicache push protocol v1 (https://doc.replicache.dev/strategies/row-version#push),
// written as the protocol's steps. Each mutation is one write (db/write.ts) together with its
// client's lastMutationID, so a mutation is applied exactly once or not at all, and its effects
// (pokes, queued sends leaving) run only after that commit: a mutation rolled back sends nothing,
// a retried push sends nothing twice.
import { AppError } from '@zapdesk/sync';
import type { ClientStateNotFoundResponse } from 'replicache';
import { z } from 'zod';
import { assertPlanAllows } from '../auth/plan-gate.ts';
import type { AppDeps, Actor } from '../context.ts';
import { nowIso, type Database } from '../db/database.ts';
import { tenant } from '../db/tenant.ts';
import { attempt, writeInOrder, type Reader, type Settled, type Tx } from '../db/write.ts';
import { parseWith } from '../http/validate.ts';
import { serverMutators, type MutatorContext } from './mutators.ts';
import { selectClientRow, updateLastMutationId } from './push-queries.ts';
import { claimClientGroup } from './cvr-writer.ts';
import { MAX_ERRORS } from './views/mutation-errors.ts';

const mutationSchema = z.object({
  id: z.number().int().positive(),
  clientID: z.string().min(1).max(100),
  name: z.string().min(1).max(100),
  args: z.unknown(),
  timestamp: z.number().optional(),
});
type Mutation = z.infer<typeof mutationSchema>;

export const pushRequestSchema = z.object({
  pushVersion: z.literal(1),
  clientGroupID: z.string().min(1).max(100),
  mutations: z.array(mutationSchema).max(1000),
  profileID: z.string().optional(),
  schemaVersion: z.string().optional(),
});
export type PushRequest = z.infer<typeof pushRequestSchema>;

export type PushResult = {
  response: Record<string, never> | ClientStateNotFoundResponse;
  applied: number;
  failed: number;
  /** Why processing stopped early (a gap, a client of another group); the route answers it. */
  refusal?: AppError;
};

type Outcome = 'applied' | 'skipped' | 'failed' | 'unknown-client';

export async function push(deps: AppDeps, actor: Actor, req: PushRequest): Promise<PushResult> {
  // 1. The client group must be the actor's (or new, then it becomes theirs).
  await claimClientGroup(deps.db, actor, req.clientGroupID);
  const result: PushResult = { response: {}, applied: 0, failed: 0 };
  // Each mutation is its own write, in order; a refusal or an unknown client stops the rest.
  const writes = req.mutations.map((mutation) => (tx: Tx) => processMutation(tx, actor, req.clientGroupID, mutation));
  const stops = (o: Settled<Outcome>) => (o.ok ? o.value === 'unknown-client' : true);
  for await (const outcome of writeInOrder(deps, writes, stops)) {
    if (!outcome.ok) {
      const err = outcome.error;
      if (err instanceof GapError) result.refusal = new AppError('ERR_VALIDATION', err.message);
      else if (err instanceof ForeignClientError) result.refusal = new AppError('ERR_NO_PERMISSION', err.message);
      else throw err;
      break;
    }
    if (outcome.value === 'unknown-client') {
      // The server has no record of a client that is past its first mutation: it lost that
      // client's state, and Replicache must start the client over.
      result.response = { error: 'ClientStateNotFound' };
      break;
    }
    if (outcome.value === 'applied') result.applied++;
    if (outcome.value === 'failed') result.failed++;
  }
  return result;
}

/** 2. One write: the client row (locked), the business change, the new lastMutationID. */
async function processMutation(tx: Tx, actor: Actor, groupId: string, mutation: Mutation): Promise<Outcome> {
  const { lastMutationId, isNew } = await lockClient(tx, actor.companyId, groupId, mutation.clientID);
  // 3. Already processed (a retried push): skip.
  if (mutation.id <= lastMutationId) return 'skipped';
  // 4. From the future: refuse, and stop here (the caller never sees later ones applied out of order).
  if (mutation.id > lastMutationId + 1) {
    if (isNew && lastMutationId === 0) return 'unknown-client';
    throw new GapError(mutation, lastMutationId);
  }
  // 5. The authoritative change, in a savepoint: arguments re-parsed with the shared schema, then the service.
  const change = await attempt(tx, (inner) => runMutator(inner, actor, mutation));
  await setLastMutationId(tx.db, actor.companyId, mutation.clientID, mutation.id);
  if (change.ok) return 'applied';
  // 6. The business change failed and is undone (its effects too): the mutation is still marked
  //    processed and why is recorded, so the client's queue moves on and the app can tell the user
  //    (the pusher's clients pull it).
  await recordError(tx.db, actor.companyId, mutation, toBusinessError(tx, mutation, change.error));
  tx.effects.poke(actor.companyId, [actor.userId]);
  return 'failed';
}

class ForeignClientError extends Error {}

class GapError extends Error {
  constructor(mutation: Mutation, last: number) {
    super(`Mutation ${mutation.id} of client ${mutation.clientID} is from the future: the server has processed up to ${last}.`);
  }
}

async function runMutator(tx: Tx, actor: Actor, mutation: Mutation): Promise<void> {
  const mutator = Object.hasOwn(serverMutators, mutation.name) ? serverMutators[mutation.name as keyof typeof serverMutators] : undefined;
  if (!mutator) throw new AppError('ERR_VALIDATION', `Unknown mutation ${mutation.name}.`);
  const args = parseWith(mutator.args, mutation.args);
  // A feature the plan lacks is refused as REST refuses it (auth/plan-gate.ts), inside the write.
  if (mutator.plan) await assertPlanAllows(tx.db, actor.companyId, mutator.plan);
  await (mutator.run as (ctx: MutatorContext, a: unknown) => Promise<void>)({ tx, actor }, args);
}

function toBusinessError(deps: Reader, mutation: Mutation, err: unknown): AppError {
  if (err instanceof AppError) return err;
  // Not a business refusal (a bug, a constraint nobody checked): logged, and still recorded so one
  // bad mutation cannot block the client forever. If the database itself is down, the write fails
  // and the push answers 500, which Replicache retries.
  deps.log.error('sync mutation failed', { name: mutation.name, clientID: mutation.clientID, id: mutation.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  return new AppError('ERR_INTERNAL_SERVER_ERROR');
}

/** The client row, created with lastMutationID 0 on first sight; a client of another group is refused. */
async function lockClient(tx: Tx, companyId: number, groupId: string, clientId: string) {
  const db = tx.db;
  const find = async () => (await selectClientRow[tx.dialect](db, { companyId, clientId })).rows[0];
  let row = await find();
  let isNew = false;
  if (!row) {
    await tenant(db, companyId).insertInto('replicacheClients', { id: clientId, clientGroupId: groupId, lastMutationId: 0 }).onConflict((oc) => oc.column('id').doNothing()).execute();
    row = await find();
    isNew = true;
  }
  if (!row || row.clientGroupId !== groupId) {
    throw new ForeignClientError(`Sync client ${clientId} belongs to another client group.`);
  }
  return { lastMutationId: row.lastMutationId, isNew };
}

async function setLastMutationId(db: Database, companyId: number, clientId: string, id: number) {
  await updateLastMutationId(db, { companyId, clientId, id, now: nowIso() });
}

async function recordError(db: Database, companyId: number, mutation: Mutation, err: AppError) {
  const t = tenant(db, companyId);
  await t.insertInto('replicacheMutationErrors', { clientId: mutation.clientID, mutationId: mutation.id, name: mutation.name, code: err.code, message: err.message.slice(0, 1000) }).execute();
  // Only the newest few per client are shown, so only those are kept.
  const keep = await t
    .selectFrom('replicacheMutationErrors')
    .select('replicacheMutationErrors.id')
    .where('replicacheMutationErrors.clientId', '=', mutation.clientID)
    .orderBy('replicacheMutationErrors.id', 'desc')
    .offset(MAX_ERRORS)
    .limit(1)
    .executeTakeFirst();
  if (keep) await t.deleteFrom('replicacheMutationErrors').where('replicacheMutationErrors.clientId', '=', mutation.clientID).where('replicacheMutationErrors.id', '<=', keep.id).execute();
}
