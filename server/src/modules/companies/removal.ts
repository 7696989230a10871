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
 * Rows per slice. Deleting a message costs ~45 µs on SQLite (its indexes and triggers): measured on
 * a company of 20,000 tickets and 200,000 messages, a slice held the writer 20–70 ms, where the one
 * cascade from the company's row held it 6.5 s (sliced, the whole took 9–12 s in ~660 writes).
 */
const SLICE_ROWS = 500;

export async function removeCompany(deps: AppDeps, id: number, opts: { sliceRows?: number } = {}): Promise<void> {
  await write(deps, (tx) => closeCompany(tx, id));
  const limit = opts.sliceRows ?? SLICE_ROWS;
  for (const table of SLICED_TABLES) {
    while ((await write(deps, (tx) => deleteSlice(tx, table, id, limit))) === limit);
  }
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
  // Kysely cannot type a where on a table chosen at run time: every one of these has an integer id.
  const ids = t.selectFrom(table).select(`${table}.id` as 'outbox.id').limit(limit);
  const result = await t.deleteFrom(table).where(`${table}.id` as 'outbox.id', 'in', ids as never).executeTakeFirst();
  return Number(result.numDeletedRows);
}
