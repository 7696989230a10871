// Data functions of help videos, a platform table (no company_id). The database handle comes first.
import type { Insertable, Updateable } from 'kysely';
import { nowIso, type Database } from '../../db/database.ts';
import type { Helps } from '../../db/schema.ts';

export async function findHelpRows(db: Database) {
  return db.selectFrom('helps').selectAll().orderBy('title').orderBy('id').execute();
}

export async function insertHelpRow(db: Database, row: Insertable<Helps>) {
  return db.insertInto('helps').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Changes the fields given and bumps the row version; undefined when the id is unknown. */
export async function updateHelpRow(db: Database, id: number, row: Updateable<Helps>) {
  return db
    .updateTable('helps')
    .set(row)
    .set((eb) => ({ version: eb('helps.version', '+', 1), updatedAt: nowIso() }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function deleteHelpRow(db: Database, id: number): Promise<boolean> {
  const result = await db.deleteFrom('helps').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
