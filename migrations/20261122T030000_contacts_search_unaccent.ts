// Contact search that ignores accents on PostgreSQL, as contacts_fts already does on SQLite
// (tokenize unicode61 remove_diacritics 2): "joao" finds "João" on both dialects. name_tsv stays
// as it is for the ticket search that reads it; the contacts list reads search_tsv.
import { sql, type Kysely } from 'kysely';
import { dialectOf } from './lib/v1.ts';

const ACCENTED = 'áàâãäåéèêëíìîïóòôõöúùûüçñýÿÁÀÂÃÄÅÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÇÑÝ';
const PLAIN = 'aaaaaaeeeeiiiiooooouuuucnyyaaaaaaeeeeiiiiooooouuuucny';

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql
    .raw(
      `ALTER TABLE contacts ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS ` +
        `(to_tsvector('simple', translate(lower(coalesce(name, '') || ' ' || coalesce(number, '')), '${ACCENTED}', '${PLAIN}'))) STORED`,
    )
    .execute(db);
  await sql`CREATE INDEX contacts_search_tsv ON contacts USING gin (search_tsv)`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('No down migration: restore a backup instead.');
}
