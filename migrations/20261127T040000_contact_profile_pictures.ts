// Contact profile pictures (spec/02 §3 profilePicUrl), fetched through the connection's channel
// outside any transaction: profile_pic_checked_at is when the picture was last asked for (found or
// not), so the refresh runs for new contacts and then at most once a day per contact.
import type { Kysely } from 'kysely';
import { dialectOf } from './lib/v1.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = dialectOf(db) === 'postgres';
  await db.schema.alterTable('contacts').addColumn('profile_pic_checked_at', pg ? 'timestamptz' : 'text').execute();
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
