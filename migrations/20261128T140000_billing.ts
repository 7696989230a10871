// Billing (DESIGN §14, issue 17). One invoice per company and period: the invoice job keys an
// invoice by the due date it charges for, so a restart or a second instance inserting the same
// period hits this unique index and writes nothing. `payment_ref` keeps what confirmed the payment
// (simulator, webhook endToEndId, manual). Platform settings are the super-admin's key/value rows
// (the Pix key, merchant name and city): platform-wide, so not a tenant table.
import type { Kysely } from 'kysely';
import { columns, dialectOf } from './lib/v1.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const c = columns(dialectOf(db));
  await db.schema.createIndex('invoices_company_period').on('invoices').columns(['company_id', 'due_date']).unique().execute();
  await db.schema.alterTable('invoices').addColumn('payment_ref', 'text').execute();
  await c.stamps(db.schema.createTable('platform_settings')
    .addColumn('key', 'text', (x) => x.primaryKey())
    .addColumn('value', 'text', (x) => x.notNull())).execute();
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
