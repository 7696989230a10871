// Company webhooks (issue 18). `webhooks`: an admin's URL, the events it wants (JSON array), the
// signing secret sealed with the data key, on or off. `webhook_deliveries`: one row per event and
// webhook, written in the transaction of the change (a rolled-back write has none), claimed by the
// worker, posted outside any transaction, its outcome written back: queued → running → done |
// failed; `order_key` keeps a ticket's deliveries in order; `event_id` is the same on every attempt.
// Neither table is synced.
import { sql, type Kysely } from 'kysely';
import { columns, dialectOf } from './lib/v1.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const c = columns(dialectOf(db));
  await c.stamps(c.company(c.id(db.schema.createTable('webhooks')))
    .addColumn('name', 'text', (x) => x.notNull())
    .addColumn('url', 'text', (x) => x.notNull())
    .addColumn('events', 'text', (x) => x.notNull())
    .addColumn('secret', 'text', (x) => x.notNull())
    .addColumn('enabled', 'integer', (x) => x.notNull().defaultTo(1))).execute();
  await db.schema.createIndex('webhooks_company').on('webhooks').columns(['company_id', 'id']).execute();

  await c.time(c.time(c.time(c.stamps(c.company(c.id(db.schema.createTable('webhook_deliveries')))
    .addColumn('webhook_id', 'integer', (x) => x.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (x) => x.notNull())
    .addColumn('event', 'text', (x) => x.notNull())
    .addColumn('order_key', 'text', (x) => x.notNull())
    .addColumn('payload', 'text', (x) => x.notNull())
    .addColumn('state', 'text', (x) => x.notNull().defaultTo('queued'))
    .addColumn('attempts', 'integer', (x) => x.notNull().defaultTo(0))
    .addColumn('response_status', 'integer')
    .addColumn('duration_ms', 'integer')
    .addColumn('error', 'text')
    .addColumn('claimed_by', 'text')), 'not_before'), 'claimed_at'), 'delivered_at').execute();
  // The worker's look-up: only live rows are in it.
  await sql`create index webhook_deliveries_live on webhook_deliveries (state, id) where state in ('queued', 'running')`.execute(db);
  // The delivery log of one webhook, newest first.
  await db.schema.createIndex('webhook_deliveries_company_webhook').on('webhook_deliveries').columns(['company_id', 'webhook_id', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
