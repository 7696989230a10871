// The outbox (DESIGN §12): every outgoing message is a row before it is a network call. The message
// row carries what its readers see (`send_status` queued → sent | failed, `send_error` the catalogue
// code of a failure); `outbox` holds the live queue only (a row leaves once its message is sent or
// failed): the dispatcher's state, never synced. Rows written before this migration keep a null
// status (inbound messages, and sends that already happened).
import type { Kysely } from 'kysely';
import { columns, dialectOf } from './lib/v1.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const c = columns(dialectOf(db));
  await db.schema.alterTable('messages').addColumn('send_status', 'text').execute();
  await db.schema.alterTable('messages').addColumn('send_error', 'text').execute();

  await c.stamps(c.time(c.time(c.company(c.id(db.schema.createTable('outbox')))
    .addColumn('whatsapp_id', 'integer', (x) => x.notNull().references('whatsapps.id').onDelete('cascade'))
    .addColumn('ticket_id', 'integer', (x) => x.notNull().references('tickets.id').onDelete('cascade'))
    .addColumn('message_id', 'integer', (x) => x.notNull().unique().references('messages.id').onDelete('cascade'))
    // queued: waiting its turn; sending: handed to the network by the instance in claimed_by.
    .addColumn('state', 'text', (x) => x.notNull().defaultTo('queued'))
    .addColumn('attempts', 'integer', (x) => x.notNull().defaultTo(0))
    // What to tell when the message ends (e.g. `schedule:12`), so its origin learns the outcome.
    .addColumn('origin', 'text')
    .addColumn('claimed_by', 'text'), 'claimed_at'), 'not_before')).execute();
  // The dispatcher reads a connection's queue in order.
  await db.schema.createIndex('outbox_company_whatsapp_state').on('outbox').columns(['company_id', 'whatsapp_id', 'state', 'id']).execute();
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
