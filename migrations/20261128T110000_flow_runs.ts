// Flow runs (DESIGN §13, issue 15): the state of one conversation in one flow, per ticket, and the
// timers its waits set. A run holds the flow version it started on, the engine's state as JSON
// (sync/src/flow/state.ts), the node it is at, its deadline (the pending timer's due time) and the
// last inbound message it took (a message id is taken once: redeliveries never advance it twice).
// At most one running run per ticket (partial unique index). A timer row is `pending` until the job
// fires it (`fired`, one conditional update in the same write as the step it causes) or the engine
// cancels it (`cancelled`). Neither table is synced: the ticket shows the step (tickets.flow_node_id).
import { sql, type Kysely } from 'kysely';
import { columns, dialectOf } from './lib/v1.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const c = columns(dialectOf(db));
  await c.time(c.time(c.stamps(c.company(c.id(db.schema.createTable('flow_runs')))
    .addColumn('ticket_id', 'integer', (x) => x.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('flow_id', 'integer', (x) => x.notNull().references('flows.id').onDelete('cascade'))
    .addColumn('flow_version_id', 'integer', (x) => x.notNull().references('flow_versions.id').onDelete('cascade'))
    .addColumn('campaign_id', 'integer', (x) => x.references('flow_campaigns.id').onDelete('set null'))
    .addColumn('status', 'text', (x) => x.notNull().defaultTo('running'))
    .addColumn('node_id', 'text')
    .addColumn('state', 'text', (x) => x.notNull())
    .addColumn('last_message_id', 'integer')
    .addColumn('end_reason', 'text')), 'deadline'), 'ended_at').execute();
  await db.schema.createIndex('flow_runs_company_ticket_status').on('flow_runs').columns(['company_id', 'ticket_id', 'status']).execute();
  await sql`create unique index flow_runs_company_ticket_running on flow_runs (company_id, ticket_id) where status = 'running'`.execute(db);

  await c.time(c.time(c.stamps(c.company(c.id(db.schema.createTable('flow_timers')))
    .addColumn('run_id', 'integer', (x) => x.notNull().references('flow_runs.id').onDelete('cascade'))
    .addColumn('timer_id', 'text', (x) => x.notNull())
    .addColumn('status', 'text', (x) => x.notNull().defaultTo('pending'))), 'due_at', (x) => x.notNull()), 'fired_at').execute();
  await db.schema.createIndex('flow_timers_company_run_timer').on('flow_timers').columns(['company_id', 'run_id', 'timer_id']).unique().execute();
  // The job's look-up of due timers: only pending rows are in it, so it stays small however many
  // timers have fired (the job names the literal `status = 'pending'`, as SQLite's planner needs).
  await sql`create index flow_timers_company_due_pending on flow_timers (company_id, due_at) where status = 'pending'`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
