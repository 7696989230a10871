// Pruning the webhook delivery log (issue 18): delivered and failed rows are deleted once older than
// the retention period. This index holds only settled rows, by the time they settled, so the job
// finds the old ones without reading the table (live rows are in webhook_deliveries_live).
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index webhook_deliveries_settled on webhook_deliveries (updated_at, id) where state in ('done', 'failed')`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
