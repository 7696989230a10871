// SQLite's message search index is fed after the commit, in batches (migration
// 20261128T221500_deferred_message_index): a stored message is queued by its insert trigger, and
// `indexQueuedMessages` moves the queue into ticket_messages_fts. A job runs it every moment
// (`startMessageIndexJob`), and the ticket search runs it before it reads the index, so a search
// finds what was stored just before it. Index maintenance, not business data: no version moves and
// nobody is poked, so it runs its own short transactions rather than through write(). PostgreSQL
// keeps its index in the same transaction (tsvector + GIN): nothing to do there.
import { sql, type Transaction } from 'kysely';
import type { Database, Dialect } from './database.ts';
import type { Logger } from '../log.ts';
import type { DB } from './schema.ts';

/** Messages indexed per transaction at most: each holds SQLite's writer for a few milliseconds. */
const BATCH = 2_000;
const JOB_EVERY_MS = 250;

/** Moves every queued message into the search index (SQLite; nothing elsewhere). Answers how many. */
export async function indexQueuedMessages(db: Database, dialect: Dialect): Promise<number> {
  if (dialect !== 'sqlite') return 0;
  let total = 0;
  for (;;) {
    // The common case (nothing queued) is one read that takes no lock.
    const queued = await sql<{ id: number }>`SELECT message_id AS id FROM ticket_messages_fts_queue LIMIT 1`.execute(db);
    if (queued.rows.length === 0) return total;
    const moved = db.isTransaction ? await indexBatch(db as Transaction<DB>) : await db.transaction().execute(indexBatch);
    total += moved;
    if (moved < BATCH) return total;
  }
}

/** The oldest BATCH queued messages into the index, and out of the queue, in the caller's transaction. */
async function indexBatch(trx: Transaction<DB>): Promise<number> {
  const bound = await sql<{ last: number | null; n: number }>`
    SELECT max(message_id) AS last, count(*) AS n FROM (SELECT message_id FROM ticket_messages_fts_queue ORDER BY message_id LIMIT ${BATCH})`.execute(trx);
  const { last, n } = bound.rows[0]!;
  if (last === null) return 0;
  await sql`INSERT INTO ticket_messages_fts(rowid, body)
    SELECT m.ticket_id * 4294967296 + m.id, m.body FROM ticket_messages_fts_queue q JOIN messages m ON m.id = q.message_id WHERE q.message_id <= ${last}`.execute(trx);
  await sql`DELETE FROM ticket_messages_fts_queue WHERE message_id <= ${last}`.execute(trx);
  return n;
}

export type RunningIndexJob = { stop(): Promise<void> };

/** Indexes what was queued every JOB_EVERY_MS (SQLite); a failed pass is logged and tried again. */
export function startMessageIndexJob(deps: { db: Database; dialect: Dialect; log: Logger }): RunningIndexJob {
  if (deps.dialect !== 'sqlite') return { stop: async () => {} };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  const later = () => {
    timer = setTimeout(tick, JOB_EVERY_MS);
    timer.unref();
  };
  const tick = () => {
    if (stopped) return;
    running = indexQueuedMessages(deps.db, deps.dialect)
      .catch((err: unknown) => deps.log.error('message index pass failed', { error: String(err) }))
      .finally(() => {
        running = undefined;
        if (!stopped) later();
      });
  };
  later();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      // What the last moments stored is searchable after a restart too (the queue survives anyway).
      await indexQueuedMessages(deps.db, deps.dialect).catch(() => undefined);
    },
  };
}
