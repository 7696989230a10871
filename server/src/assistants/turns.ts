// The assistant_turns rows (migration 20261128T130000): a turn is queued in the write that decided
// an assistant answers, claimed by the worker, and ends `done` (in the write of its answer) or
// `failed`. Nothing here calls the network.
import { sql, type RawBuilder, type Selectable } from 'kysely';
import type { Database, Dialect } from '../db/database.ts';
import type { AssistantTurns } from '../db/schema.ts';
import { tenant } from '../db/tenant.ts';
import type { Reader, Tx } from '../db/write.ts';

export type TurnRow = Selectable<AssistantTurns>;
/** prompt: a prompt's id; integration: a queue integration's id; flow: a flow run's id (its typebot or openai node). */
export type TurnKind = 'prompt' | 'integration' | 'flow';

/**
 * Queues a turn for the ticket. A prompt reads the whole recent conversation, so messages that
 * arrive while its turn still waits join that turn (one answer to "hi" + "I need help"); an
 * integration gets every message as its own turn, in order.
 */
export async function queueTurn(tx: Tx, input: { companyId: number; ticketId: number; messageId: number | null; kind: TurnKind; targetId: number }): Promise<void> {
  const t = tenant(tx.db, input.companyId);
  if (input.kind === 'prompt' && input.messageId !== null) {
    const joined = await t
      .updateTable('assistantTurns')
      .set({ messageId: input.messageId, targetId: input.targetId, updatedAt: new Date().toISOString() })
      .where('assistantTurns.ticketId', '=', input.ticketId)
      .where('assistantTurns.kind', '=', 'prompt')
      .where('assistantTurns.state', '=', 'queued')
      .executeTakeFirst();
    if (Number(joined.numUpdatedRows) > 0) return;
  }
  await t.insertInto('assistantTurns', { ticketId: input.ticketId, messageId: input.messageId, kind: input.kind, targetId: input.targetId }).execute();
  tx.effects.afterCommit((app) => app.assistants.wake());
}

/**
 * Queued turns, oldest first, of tickets not under way here. A ticket's turns run in order: the
 * caller takes each ticket's oldest one, and only when it is due (a turn waiting for its retry
 * holds the ticket's later ones back).
 */
export async function findQueuedTurns(r: Pick<Reader, 'db' | 'dialect'>, busyTickets: Set<number>, limit: number): Promise<TurnRow[]> {
  return r.db
    .selectFrom('assistantTurns')
    .selectAll()
    .where(sql<boolean>`state in ('queued', 'running')`)
    .where('assistantTurns.state', '=', 'queued')
    .$if(busyTickets.size > 0, (q) => q.where(notAmong('assistant_turns.ticket_id', [...busyTickets], r.dialect)))
    .orderBy('assistantTurns.id')
    .limit(limit)
    .execute();
}

/**
 * `column not in (…ids)` with the ids as one parameter, so the statement's text stays the same
 * whatever their number: up to the worker's concurrency (256) tickets are under way, and a list
 * of parameters made a new statement (compiled and prepared anew) for each length.
 */
function notAmong(column: string, ids: number[], dialect: Dialect): RawBuilder<boolean> {
  return dialect === 'postgres' ? sql<boolean>`${sql.ref(column)} <> all(${ids}::integer[])` : sql<boolean>`${sql.ref(column)} not in (select value from json_each(${JSON.stringify(ids)}))`;
}

/** Takes the turns for this process, in one statement; answers the ids it got (others took the rest). */
export async function claimTurns(db: Database, ids: number[], instance: string): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const now = new Date().toISOString();
  const rows = await db
    .updateTable('assistantTurns')
    .set((eb) => ({ state: 'running', claimedBy: instance, claimedAt: now, attempts: eb('assistantTurns.attempts', '+', 1), updatedAt: now }))
    .where('assistantTurns.id', 'in', ids)
    .where('assistantTurns.state', '=', 'queued')
    .returning('assistantTurns.id')
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * Turns left `running` by a process that is gone go back to the queue: their call is made again
 * and its answer written once (the answer and `done` share a write). `olderThan` spares turns
 * another live instance is running (PostgreSQL).
 */
export async function requeueAbandoned(db: Database, opts: { instance?: string; olderThan?: string }): Promise<number> {
  const res = await db
    .updateTable('assistantTurns')
    .set({ state: 'queued', claimedBy: null, claimedAt: null, updatedAt: new Date().toISOString() })
    .where(sql<boolean>`state in ('queued', 'running')`)
    .where('assistantTurns.state', '=', 'running')
    .$if(opts.instance !== undefined, (q) => q.where('assistantTurns.claimedBy', '!=', opts.instance!))
    .$if(opts.olderThan !== undefined, (q) => q.where('assistantTurns.claimedAt', '<', opts.olderThan!))
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

export async function endTurn(tx: Tx, turn: TurnRow, state: 'done' | 'failed', error: string | null = null): Promise<void> {
  await tenant(tx.db, turn.companyId)
    .updateTable('assistantTurns')
    .set({ state, error, claimedBy: null, updatedAt: new Date().toISOString() })
    .where('assistantTurns.id', '=', turn.id)
    .execute();
}

/** Another attempt after `delayMs` (the worker's slot is free meanwhile: other tickets go on). */
export async function retryTurn(db: Database, turn: TurnRow, delayMs: number, error: string): Promise<void> {
  await db
    .updateTable('assistantTurns')
    .set({ state: 'queued', claimedBy: null, notBefore: new Date(Date.now() + delayMs).toISOString(), error, updatedAt: new Date().toISOString() })
    .where('assistantTurns.id', '=', turn.id)
    .where('assistantTurns.state', '=', 'running')
    .execute();
}

/** Whether anything is queued or running (tests and the bench wait for quiet). */
export async function hasLiveTurns(db: Database): Promise<boolean> {
  const row = await db.selectFrom('assistantTurns').select('id').where(sql<boolean>`state in ('queued', 'running')`).limit(1).executeTakeFirst();
  return row !== undefined;
}
