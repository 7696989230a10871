// The version-bump rule (README.md): every write to a synced table bumps `version` in the same
// statement, so the row's new state reaches every client that sees it.
import { sql, type RawBuilder } from 'kysely';
import { nowIso } from '../db/database.ts';

/** Spread into `.set()`: `updateTable('tags').set({ name, ...bumpVersion() })`. */
export function bumpVersion(): { version: RawBuilder<number>; updatedAt: string } {
  return { version: sql<number>`version + 1`, updatedAt: nowIso() };
}
