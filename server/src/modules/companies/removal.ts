// Deleting a company (DELETE /companies/{id}) and everything it owns, without stopping the platform
// while it goes. One cascade from the company's row held SQLite's only writer for as long as the
// company's rows took to delete (6.5 s for 200,000 messages), and every other company's messages
// and replies waited behind it; its WhatsApp sessions went on running and its files stayed. Now:
// 1. closed, in one short write: inactive (no new sign-in), its users' sessions revoked, and once
//    committed its devices told and its WhatsApp sessions ended, so nothing new arrives for it;
// 2. its large tables emptied a slice at a time, children before parents (a parent's delete then
//    finds nothing left to cascade to), each slice its own write, so other writes go in between;
// 3. its row deleted, which cascades to what is left (settings, users, queues…: a few rows);
// 4. its media folder removed.
// A process that dies midway leaves the company closed and partly emptied: deleting it again
// finishes the work (every step finds what is left).
import { AppError } from '@zapdesk/sync';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { AppDeps } from '../../context.ts';
import { nowIso } from '../../db/database.ts';
import { tenant, type TenantTable } from '../../db/tenant.ts';
import { inSlices } from '../../db/slices.ts';
import { write, type Tx } from '../../db/write.ts';
import { bumpVersion } from '../../sync/version.ts';
import { countSuperUsers, deleteCompanyRow, findCompanyRow } from './queries.ts';

/** The tables a company fills with its traffic, each before the tables it references. */
export const SLICED_TABLES = [
  'outbox',
  'assistantTurns',
  'campaignShippings',
  'flowTimers',
  'flowRuns',
  'webhookDeliveries',
  'messages',
  'ticketNotes',
  'ticketTrackings',
  'userRatings',
  'schedules',
  'assistantSessions',
  'tickets',
  'contactCustomFields',
  'contacts',
  'contactListItems',
  'chatMessages',
  'assistantUsage',
  'invoices',
] as const satisfies readonly TenantTable[];

/**
 * `sliceRows`: rows per write (db/slices.ts). Measured on SQLite, a company of 20,000 tickets and
 * 200,000 messages: another company's writes waited 6.1 s behind the one cascade from the company's
 * row; sliced, they waited 28 ms at the median and 126 ms at most (the whole deletion took 7.5 s).
 */
export async function removeCompany(deps: AppDeps, id: number, opts: { sliceRows?: number } = {}): Promise<void> {
  await write(deps, (tx) => closeCompany(tx, id));
  for (const table of SLICED_TABLES) await inSlices(deps, (tx, limit) => deleteSlice(tx, table, id, limit), opts.sliceRows);
  await write(deps, (tx) => deleteCompanyRow(tx.db, id));
  await rm(path.join(deps.config.mediaDir, String(id)), { recursive: true, force: true });
}

async function closeCompany(tx: Tx, id: number): Promise<void> {
  if (!(await findCompanyRow(tx.db, id))) throw new AppError('ERR_NO_COMPANY_FOUND');
  if ((await countSuperUsers(tx.db, id)) > 0) throw new AppError('ERR_NO_PERMISSION', 'The company of a super-admin cannot be deleted.');
  const t = tenant(tx.db, id);
  const now = nowIso();
  await tx.db.updateTable('companies').set({ status: 0, ...bumpVersion() }).where('companies.id', '=', id).execute();
  const sessions = await t
    .updateTable('userSessions')
    .set({ revokedAt: now, revokedReason: 'company-deleted', updatedAt: now })
    .where('userSessions.revokedAt', 'is', null)
    .returning('userSessions.id')
    .execute();
  const connections = await t.selectFrom('whatsapps').select('whatsapps.id').execute();
  if (sessions.length) tx.effects.afterCommit(({ realtime }) => realtime.sessionRevoked(sessions.map((s) => s.id), 'company-deleted'));
  tx.effects.afterCommit(({ sessions }) => Promise.all(connections.map((c) => sessions.forget(c.id))));
}

/** Deletes up to `limit` of the company's rows of one table; answers how many went. */
async function deleteSlice(tx: Tx, table: (typeof SLICED_TABLES)[number], companyId: number, limit: number): Promise<number> {
  const t = tenant(tx.db, companyId);
  // Kysely cannot type a column of a table chosen at run time: each of these has an integer id. The
  // ids are read first, through the company's index; as a subquery of the delete, db/database.ts's
  // preferPrimaryKey would take that index away from it too (it read the whole table per slice).
  const id = `${table}.id` as 'outbox.id';
  const ids = (await t.selectFrom(table).select(id).limit(limit).execute()).map((r) => r.id);
  if (ids.length > 0) await t.deleteFrom(table).where(id, 'in', ids).execute();
  return ids.length;
}
