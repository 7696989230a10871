// The flow timer job (server/src/flows-runtime/timers.ts) serves every company: each pass reads the
// pending timers due by now, oldest first, and then the next one's due time to wake for it. The
// partial index of pending timers starts with company_id, so both reads went through every pending
// timer of the platform (menus waiting for an answer with a timeout, long intervals) and sorted them.
// This one is ordered by due time across companies, pending rows only.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX flow_timers_due_pending ON flow_timers (due_at, id) WHERE status = 'pending'`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
