// The assistant_turns rows (migration 20261128T130000): a turn is queued in the write that decided
// an assistant answers, claimed by the worker, and ends `done` (in the write of its answer) or
// `failed`. Nothing here calls the network.
import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import { runFirst, type Database } from '../db/database.ts';
import { prepare, prepareAcrossCompanies } from '../db/prepared.ts';
import type { AssistantTurns, DB } from '../db/schema.ts';
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
  if (input.kind === 'prompt' && input.messageId !== null) {
    const joined = await joinQueuedPrompt(tx.db, { companyId: input.companyId, ticketId: input.ticketId, messageId: input.messageId, targetId: input.targetId, now: new Date().toISOString() });
    if (Number(joined.numAffectedRows) > 0) return;
  }
  await insertTurn(tx.db, input);
  tx.effects.afterCommit((app) => app.assistants.wake());
}

// A turn is queued with each message an assistant answers: compiled once (../db/prepared.ts).
const joinQueuedPrompt = prepare((db, p: { companyId: number; ticketId: number; messageId: number; targetId: number; now: string }) =>
  db
    .updateTable('assistantTurns')
    .set({ messageId: p.messageId, targetId: p.targetId, updatedAt: p.now })
    .where('assistantTurns.companyId', '=', p.companyId)
    .where('assistantTurns.ticketId', '=', p.ticketId)
    .where('assistantTurns.kind', '=', 'prompt')
    .where('assistantTurns.state', '=', 'queued'),
);

const insertTurn = prepare((db, p: { companyId: number; ticketId: number; messageId: number | null; kind: TurnKind; targetId: number }) =>
  db.insertInto('assistantTurns').values({ companyId: p.companyId, ticketId: p.ticketId, messageId: p.messageId, kind: p.kind, targetId: p.targetId }),
);

/**
 * Queued turns, oldest first, of tickets not under way here. A ticket's turns run in order: the
 * caller takes each ticket's oldest one, and only when it is due (a turn waiting for its retry
 * holds the ticket's later ones back).
 */
export async function findQueuedTurns(r: Pick<Reader, 'db' | 'dialect'>, busyTickets: Set<number>, limit: number): Promise<TurnRow[]> {
  const query = r.dialect === 'postgres' ? selectQueuedTurnsPg : selectQueuedTurnsSqlite;
  return (await query(r.db, { busy: r.dialect === 'postgres' ? `{${[...busyTickets].join(',')}}` : JSON.stringify([...busyTickets]), limit })).rows;
}

// The tickets under way (up to the worker's concurrency, 256) go as one parameter, so the statement's
// text stays the same whatever their number: SQLite a JSON array, PostgreSQL an integer[] literal.
const selectQueuedTurns = (db: Kysely<DB>, notBusy: RawBuilder<boolean>, limit: number) =>
  db
    .selectFrom('assistantTurns')
    .selectAll()
    .where(sql<boolean>`state in ('queued', 'running')`)
    .where('assistantTurns.state', '=', 'queued')
    .where(notBusy)
    .orderBy('assistantTurns.id')
    .limit(limit);
const selectQueuedTurnsSqlite = prepareAcrossCompanies((db, p: { busy: string; limit: number }) =>
  selectQueuedTurns(db, sql<boolean>`assistant_turns.ticket_id not in (select value from json_each(${p.busy}))`, p.limit),
);
const selectQueuedTurnsPg = prepareAcrossCompanies((db, p: { busy: string; limit: number }) =>
  selectQueuedTurns(db, sql<boolean>`assistant_turns.ticket_id <> all(cast(${p.busy} as integer[]))`, p.limit),
);

/** Takes the turns for this process, in one statement; answers the ids it got (others took the rest). */
export async function claimTurns(db: Database, ids: number[], instance: string): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  // Ahead of the writes waiting for SQLite's writer: a customer waits for each of these turns, and
  // a group of pushed or inbound writes would otherwise hold the claim until its commit.
  const { rows } = await runFirst(db, claim.compiled(db, { ids, instance, now: new Date().toISOString() }));
  return new Set(rows.map((r) => r.id));
}

const claim = prepareAcrossCompanies((db, p: { ids: number[]; instance: string; now: string }) =>
  db
    .updateTable('assistantTurns')
    .set((eb) => ({ state: 'running', claimedBy: p.instance, claimedAt: p.now, attempts: eb('assistantTurns.attempts', '+', 1), updatedAt: p.now }))
    .where('assistantTurns.id', 'in', p.ids)
    .where('assistantTurns.state', '=', 'queued')
    .returning('assistantTurns.id'),
);

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
  await updateEnded(tx.db, { companyId: turn.companyId, id: turn.id, state, error, now: new Date().toISOString() });
}

const updateEnded = prepare((db, p: { companyId: number; id: number; state: 'done' | 'failed'; error: string | null; now: string }) =>
  db
    .updateTable('assistantTurns')
    .set({ state: p.state, error: p.error, claimedBy: null, updatedAt: p.now })
    .where('assistantTurns.companyId', '=', p.companyId)
    .where('assistantTurns.id', '=', p.id),
);

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
