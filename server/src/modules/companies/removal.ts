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
// The route runs the steps, each in writes of its own (db/slices.ts for step 2). A process that dies
// midway leaves the company closed and partly emptied: deleting it again finishes the work (every
// step finds what is left).
import { AppError } from '@zapdesk/sync';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { tenant, type TenantTable } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { bumpVersion } from '../../sync/version.ts';
import { countSuperUsers, endCompanySessions, findCompanyRow } from './queries.ts';

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

/** Step 1, in a write of its own. */
export async function closeCompany(tx: Tx, id: number): Promise<void> {
  if (!(await findCompanyRow(tx.db, id))) throw new AppError('ERR_NO_COMPANY_FOUND');
  if ((await countSuperUsers(tx.db, id)) > 0) throw new AppError('ERR_NO_PERMISSION', 'The company of a super-admin cannot be deleted.');
  await tx.db.updateTable('companies').set({ status: 0, ...bumpVersion() }).where('companies.id', '=', id).execute();
  await endCompanySessions(tx, id, 'company-deleted');
  const connections = await tenant(tx.db, id).selectFrom('whatsapps').select('whatsapps.id').execute();
  tx.effects.afterCommit(({ sessions }) => Promise.all(connections.map((c) => sessions.forget(c.id))));
}

/**
 * Step 2, one slice: deletes up to `limit` of the company's rows, from the first of SLICED_TABLES
 * that has some on; answers how many went (fewer than `limit`: none left in any of them). Measured
 * on SQLite, a company of 20,000 tickets and 200,000 messages: another company's writes waited 6.1 s
 * behind the one cascade from the company's row; in slices of 500 they waited 28 ms at the median
 * and 126 ms at most (the whole deletion took 7.5 s).
 */
export async function deleteCompanySlice(tx: Tx, companyId: number, limit: number): Promise<number> {
  const t = tenant(tx.db, companyId);
  let left = limit;
  for (const table of SLICED_TABLES) {
    if (left === 0) break;
    // Kysely cannot type a column of a table chosen at run time: each of these has an integer id.
    // The ids first (db/slices.ts says why).
    const id = `${table}.id` as 'outbox.id';
    const ids = (await t.selectFrom(table).select(id).limit(left).execute()).map((r) => r.id);
    if (ids.length > 0) await t.deleteFrom(table).where(id, 'in', ids).execute();
    left -= ids.length;
  }
  return limit - left;
}

/** Step 3 is the company row's delete (queries.ts); step 4, after it: its media folder. */
export const removeCompanyMedia = (mediaDir: string, id: number) => rm(path.join(mediaDir, String(id)), { recursive: true, force: true });
