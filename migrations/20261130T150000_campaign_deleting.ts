// A campaign's delete empties its recipients (campaign_shippings) a slice at a time before the
// row goes (db/slices.ts): `deleting_since` marks the campaign meanwhile, so that a restart cannot
// write again the recipients already deleted (they would get the message a second time). A delete
// cut short leaves it set; deleting again finishes.
import { sql, type Kysely } from 'kysely';
import { dialectOf } from './lib/v1.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const type = dialectOf(db) === 'postgres' ? sql`timestamptz` : sql`text`;
  await sql`ALTER TABLE campaigns ADD COLUMN deleting_since ${type}`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
