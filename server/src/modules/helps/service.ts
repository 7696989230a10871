// Help videos: the super-admin writes them, every signed-in user reads them. Writes take the route's
// transaction (`tx`, db/write.ts). Helps are not synced (no view reads them; the pages fetch them over
// REST), so no write pokes anyone.
import { AppError, type Help, type HelpCreateInput, type HelpUpdateInput } from '@zapdesk/sync';
import type { Updateable } from 'kysely';
import type { Database } from '../../db/database.ts';
import type { Helps } from '../../db/schema.ts';
import type { Tx } from '../../db/write.ts';
import { toHelpDto } from './dto.ts';
import { deleteHelpRow, findHelpRows, insertHelpRow, updateHelpRow } from './queries.ts';

/** Every help entry, by title. */
export async function listHelps(db: Database): Promise<Help[]> {
  return (await findHelpRows(db)).map(toHelpDto);
}

export async function createHelp(tx: Tx, input: HelpCreateInput): Promise<Help> {
  const row = await insertHelpRow(tx.db, {
    title: input.title,
    description: input.description ?? null,
    video: input.video ?? null,
    link: input.link ?? null,
  });
  return toHelpDto(row);
}

export async function updateHelp(tx: Tx, id: number, input: HelpUpdateInput): Promise<Help> {
  const changes: Updateable<Helps> = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const row = await updateHelpRow(tx.db, id, changes);
  if (!row) throw new AppError('ERR_NO_HELP_FOUND');
  return toHelpDto(row);
}

export async function deleteHelp(tx: Tx, id: number): Promise<void> {
  if (!(await deleteHelpRow(tx.db, id))) throw new AppError('ERR_NO_HELP_FOUND');
}
