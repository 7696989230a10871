// Campaign dispatch (DESIGN §13). A shipping row is one recipient of one campaign, created once
// (unique company + campaign + number, from the initial schema) and moved through `status`:
// pending → queued (its message row is in the outbox, `message_id`) → sent | failed, or skipped
// (confirmation campaigns: pending → confirmation → confirmed → queued …, or declined),
// (`reason` invalid or opted-out) without a message. `campaign_pacing` is the per-connection send
// budget every campaign on that connection shares: the next moment a send may be claimed and the
// counters of the longer pause and of the hourly and daily caps. Neither table is synced (the report
// is REST), so they carry no version.
import type { Kysely } from 'kysely';
import { columns, dialectOf } from './lib/v1.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const c = columns(dialectOf(db));
  await db.schema.alterTable('campaign_shippings').addColumn('status', 'text', (x) => x.notNull().defaultTo('pending')).execute();
  await db.schema.alterTable('campaign_shippings').addColumn('reason', 'text').execute();
  await db.schema.alterTable('campaign_shippings').addColumn('name', 'text', (x) => x.notNull().defaultTo('')).execute();
  await db.schema.alterTable('campaign_shippings').addColumn('email', 'text', (x) => x.notNull().defaultTo('')).execute();
  await db.schema.alterTable('campaign_shippings').addColumn('variant', 'integer').execute();
  await db.schema.alterTable('campaign_shippings').addColumn('contact_id', 'integer', (x) => x.references('contacts.id').onDelete('set null')).execute();
  await db.schema.alterTable('campaign_shippings').addColumn('message_id', 'integer', (x) => x.references('messages.id').onDelete('set null')).execute();
  // The dispatcher reads a campaign's next pending recipient in id order.
  // A reply finds the recipient awaiting its confirmation by number.
  await db.schema.createIndex('campaign_shippings_company_number_status').on('campaign_shippings').columns(['company_id', 'number', 'status']).execute();
  await db.schema.createIndex('campaign_shippings_company_campaign_status').on('campaign_shippings').columns(['company_id', 'campaign_id', 'status', 'id']).execute();

  await c.stamps(c.time(c.time(c.time(c.company(c.id(db.schema.createTable('campaign_pacing')))
    .addColumn('whatsapp_id', 'integer', (x) => x.notNull().unique().references('whatsapps.id').onDelete('cascade'))
    // Sends since the last longer pause.
    .addColumn('run_count', 'integer', (x) => x.notNull().defaultTo(0))
    .addColumn('hour_count', 'integer', (x) => x.notNull().defaultTo(0))
    .addColumn('day_count', 'integer', (x) => x.notNull().defaultTo(0)), 'next_at'), 'hour_start'), 'day_start')).execute();
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
