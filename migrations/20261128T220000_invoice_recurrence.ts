// The recurrence an invoice was issued for (issue 17): paying it extends the company's due date by
// the period it charged, even if the company's recurrence changed between issue and payment (a
// monthly invoice paid after a switch to ANUAL buys one month, not twelve). Null on invoices issued
// before this column: those renew by the company's recurrence, as they did.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('invoices').addColumn('recurrence', 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
