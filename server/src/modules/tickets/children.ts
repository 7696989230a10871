// What hangs on a ticket besides its messages, let go of a slice at a time before the ticket goes
// (db/slices.ts): a delete of many tickets then cascades to nothing more than what arrived
// meanwhile. Not every child is bounded by a person's hand: an assistant answers each message of
// its ticket with a turn of its own.
//
// Each child is found by its ticket through the reference index the ticket's own delete uses
// (migration 20261130T120000), the company a check on each row (db/tenant.ts `check`): by the
// company's indexes SQLite walked every tag or rating of the company to find a few tickets'.
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { bumpVersion } from '../../sync/version.ts';

/** Tables whose rows go with their ticket (foreign key cascade), each before those it references. */
const CASCADED = ['assistantTurns', 'flowRuns', 'assistantSessions', 'ticketNotes', 'ticketTrackings', 'userRatings'] as const;

/**
 * Up to `limit` rows that name one of `ticketIds` deleted (or, for schedules, let go of the ticket
 * with a version bump, as the foreign key's `set null` would unseen by sync); answers how many.
 * Fewer than `limit`: nothing names those tickets any more, and deleting them cascades to nothing
 * but their messages.
 */
export async function releaseTicketChildren(tx: Tx, companyId: number, ticketIds: number[], limit: number): Promise<number> {
  const t = tenant(tx.db, companyId, 'check');
  let left = limit;
  // A flow's timers before its run.
  const runs = t.selectFrom('flowRuns').select('flowRuns.id').where('flowRuns.ticketId', 'in', ticketIds);
  const timers = (await t.selectFrom('flowTimers').select('flowTimers.id').where('flowTimers.runId', 'in', runs).limit(left).execute()).map((r) => r.id);
  if (timers.length > 0) await t.deleteFrom('flowTimers').where('flowTimers.id', 'in', timers).execute();
  left -= timers.length;
  for (const table of CASCADED) {
    if (left === 0) return limit;
    // Kysely cannot type a column of a table chosen at run time: each of these has an id and a ticket.
    const id = `${table}.id` as 'ticketNotes.id';
    const ids = (await t.selectFrom(table).select(id).where(`${table}.ticketId` as 'ticketNotes.ticketId', 'in', ticketIds).limit(left).execute()).map((r) => r.id);
    if (ids.length > 0) await t.deleteFrom(table).where(id, 'in', ids).execute();
    left -= ids.length;
  }
  if (left === 0) return limit;
  // Tags have no id of their own: each is its (ticket, tag) pair.
  const tags = await t.selectFrom('ticketTags').select(['ticketTags.ticketId', 'ticketTags.tagId']).where('ticketTags.ticketId', 'in', ticketIds).limit(left).execute();
  if (tags.length > 0) {
    await t
      .deleteFrom('ticketTags')
      .where((eb) => eb(eb.refTuple('ticketTags.ticketId', 'ticketTags.tagId'), 'in', tags.map((r) => eb.tuple(r.ticketId, r.tagId))))
      .execute();
  }
  left -= tags.length;
  if (left === 0) return limit;
  // A schedule outlives its ticket (it goes with its contact).
  const schedules = (await t.selectFrom('schedules').select('schedules.id').where('schedules.ticketId', 'in', ticketIds).limit(left).execute()).map((r) => r.id);
  if (schedules.length > 0) await t.updateTable('schedules').set({ ticketId: null, ...bumpVersion() }).where('schedules.id', 'in', schedules).execute();
  left -= schedules.length;
  return limit - left;
}
