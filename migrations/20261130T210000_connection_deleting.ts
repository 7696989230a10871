// A connection's delete wipes its WhatsApp keys (baileys_keys) a slice at a time before the row goes
// (db/slices.ts): `deleting_since` marks the connection meanwhile, and a session refuses to start
// on a marked connection (at boot, on another instance, or asked for), so that no new pairing reads
// the keys of the old one while they go. A delete cut short leaves it set; deleting again finishes.
import { sql, type Kysely } from 'kysely';
import { dialectOf } from './lib/v1.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const type = dialectOf(db) === 'postgres' ? sql`timestamptz` : sql`text`;
  await sql`ALTER TABLE whatsapps ADD COLUMN deleting_since ${type}`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
