// Shared CVR listings: each view's (id, version) listing is stored once per company under the hash
// of its content, and a CVR row keeps only the map view → listing id. A pull after a change then
// writes a few bytes (plus, for the first user of the company who sees it, the one listing that
// changed) instead of the whole CVR. `used_at` is touched whenever a server instance starts
// trusting that the row exists; garbage collection removes rows no CVR references and nobody
// touched recently. Old CVR rows (listings inline) stay readable.
import type { Kysely } from 'kysely';
import { columns, dialectOf } from './lib/v1.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const c = columns(dialectOf(db));
  let t = db.schema
    .createTable('replicache_listings')
    .addColumn('company_id', 'integer', (col) => col.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('entries', 'text', (col) => col.notNull());
  t = c.time(t, 'used_at', (col) => col.notNull());
  await t.addPrimaryKeyConstraint('replicache_listings_pkey', ['company_id', 'id']).execute();
  await db.schema.createIndex('replicache_listings_used_at').on('replicache_listings').columns(['company_id', 'used_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('replicache_listings').execute();
}
