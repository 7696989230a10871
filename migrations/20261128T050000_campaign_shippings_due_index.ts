// The initial schema's index on campaign_shippings (delivered_at, due_at) serves no query (the
// dispatcher reads a campaign's recipients through (company, campaign, status, id)), does not start
// with company_id, and costs every recipient's claim and outcome an index update: dropped.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('campaign_shippings_due').ifExists().execute();
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
