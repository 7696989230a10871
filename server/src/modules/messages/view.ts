// message/<ticketId>/<id>: the most recent 50 messages of each active ticket the user may see
// (tickets/view.ts decides which), each as GET /messages/{ticketId} answers it (dto.ts). Older
// messages stay on paginated REST.
import type { Message } from '@zapdesk/sync';
import { sql, type RawBuilder } from 'kysely';
import { selectArrays, type Database } from '../../db/database.ts';
import { chunk, defineView, type RowId, type VersionRow, type ViewContext } from '../../sync/views/types.ts';
import { ACTIVE_TICKET_TABLES, activeTicketsAudience, findActiveVisibleTickets } from '../tickets/view.ts';
import { toMessageDtos } from './dto.ts';

/** Messages per ticket in the client view. */
export const SYNCED_MESSAGES_PER_TICKET = 50;

/**
 * A ticket's listed window, remembered under what it was read at: the ticket's message mark
 * (migration 20261127T000000: it moves with any change of the ticket's messages) and the company's
 * contacts counter (the values show the sender's name). Any other key lists the ticket again.
 */
type Part = { key: string; rows: VersionRow[]; usedAt: number };

// Per database (tests run many in one process), per ticket id; tickets of every company share the
// map because ticket ids are unique within a database. Parts unused for PART_IDLE_MS are dropped.
const partsByDb = new WeakMap<Database, { parts: Map<number, Part>; sweptAt: number }>();
const PART_IDLE_MS = 10 * 60_000;

function partsOf(db: Database, now: number): Map<number, Part> {
  let entry = partsByDb.get(db);
  if (!entry) partsByDb.set(db, (entry = { parts: new Map(), sweptAt: now }));
  if (now - entry.sweptAt > PART_IDLE_MS) {
    for (const [id, part] of entry.parts) if (now - part.usedAt > PART_IDLE_MS) entry.parts.delete(id);
    entry.sweptAt = now;
  }
  return entry.parts;
}

// Tickets per statement: SQLite allows 500 terms in a compound select.
const WINDOW_CHUNK = 100;

/**
 * The newest 50 messages of each ticket, each read from the (company, ticket, created_at) index
 * newest first and stopped at 50: a ticket's older history is never read (a window function over
 * the tickets' messages read all of them, 10 ms for 20 tickets of 400 messages against 0.7 ms). On
 * SQLite that index also holds the columns read here (migration 20261129T040000), so the windows
 * never touch the table's pages. Rows come as arrays (selectArrays): a pull under traffic reads
 * thousands of them, and an object per row cost as much as the read.
 * SQLite: one limited select per ticket, joined by UNION ALL; PostgreSQL: a LATERAL join.
 * Each row: [id, ticket_id, version, contact_version, quoted_version, quoted_ticket_id].
 */
async function windowRows(ctx: ViewContext, ticketIds: number[]): Promise<unknown[][]> {
  const companyId = ctx.actor.companyId;
  const newest = (ticket: RawBuilder<unknown>) =>
    sql`select id, ticket_id, version, contact_id, quoted_msg_id from messages where company_id = ${companyId} and ticket_id = ${ticket} order by created_at desc, id desc limit ${SYNCED_MESSAGES_PER_TICKET}`;
  const windows =
    ctx.dialect === 'postgres'
      ? sql`(select w.* from unnest(${sql.val(ticketIds)}::int[]) as t(ticket_id) cross join lateral (${newest(sql.ref('t.ticket_id'))}) w)`
      : sql`(${sql.join(ticketIds.map((id) => sql`select * from (${newest(sql.val(id))})`), sql` union all `)})`;
  const query = sql`
    select m.id, m.ticket_id, m.version, c.version as contact_version, q.version as quoted_version, q.ticket_id as quoted_ticket_id
    from ${windows} m
    left join contacts c on c.id = m.contact_id
    left join messages q on q.id = m.quoted_msg_id`.compile(ctx.db.withoutPlugins());
  return selectArrays(ctx.db, query);
}

/** The newest 50 messages of each ticket, with the sender's and the quoted message's versions folded in. */
async function readWindows(ctx: ViewContext, ticketIds: number[]) {
  const byTicket = new Map<number, { rows: VersionRow[]; cacheable: boolean }>();
  for (const id of ticketIds) byTicket.set(id, { rows: [], cacheable: true });
  for (const part of chunk(ticketIds, WINDOW_CHUNK)) {
    for (const [id, ticketId, version, contactVersion, quotedVersion, quotedTicketId] of (await windowRows(ctx, part)) as WindowRow[]) {
      const window = byTicket.get(ticketId)!;
      window.rows.push({ id: `${ticketId}/${id}`, version: `${version}:${contactVersion ?? 0}.${quotedVersion ?? 0}` });
      // A quote of another ticket's message moves with that ticket's mark, not this one's.
      if (quotedTicketId !== null && quotedTicketId !== ticketId) window.cacheable = false;
    }
  }
  return byTicket;
}

type WindowRow = [id: number, ticketId: number, version: number, contactVersion: number | null, quotedVersion: number | null, quotedTicketId: number | null];

async function readMarks(ctx: ViewContext, ticketIds: number[]): Promise<Map<number, number>> {
  const marks = new Map<number, number>();
  for (const part of chunk(ticketIds)) {
    const rows = await ctx.db.selectFrom('ticketMessageMarks').select(['ticketId', 'mark']).where('ticketId', 'in', part).execute();
    for (const r of rows) marks.set(r.ticketId, r.mark);
  }
  return marks;
}

export const ticketMessagesView = defineView({
  name: 'ticket-message',
  prefix: 'message',
  // Besides visibility: the message rows, and the contacts whose names the values show.
  tables: [...ACTIVE_TICKET_TABLES, 'messages', 'contacts'],
  audience: activeTicketsAudience,
  async listVersions(ctx) {
    const ticketIds = (await findActiveVisibleTickets(ctx)).map((r) => r.id);
    return [...(await readWindows(ctx, ticketIds)).values()].flatMap((w) => w.rows);
  },
  // In a pull: one part per ticket, the unchanged ones as the same arrays as before.
  async listSegments(ctx) {
    const ticketIds = (await findActiveVisibleTickets(ctx)).map((r) => r.id);
    const contacts = ctx.tableVersions?.get('contacts');
    if (contacts === undefined) return [...(await readWindows(ctx, ticketIds)).values()].map((w) => w.rows);

    // The marks are read before the windows: a window is at least as new as the mark it is kept
    // under, so a change in between only costs one more read of that ticket next time.
    const now = Date.now();
    const parts = partsOf(ctx.db, now);
    const marks = await readMarks(ctx, ticketIds);
    const keyOf = (id: number) => `${marks.get(id) ?? 0}|${contacts}`;
    const stale = ticketIds.filter((id) => parts.get(id)?.key !== keyOf(id));
    const fresh = stale.length ? await readWindows(ctx, stale) : undefined;
    return ticketIds.map((id) => {
      const window = fresh?.get(id);
      if (!window) {
        const part = parts.get(id)!;
        part.usedAt = now;
        return part.rows;
      }
      if (window.cacheable) parts.set(id, { key: keyOf(id), rows: window.rows, usedAt: now });
      else parts.delete(id);
      return window.rows;
    });
  },
  async getValues(ctx, ids) {
    const out: { id: RowId; value: Message }[] = [];
    const messageIds = (ids as string[]).map((id) => Number(id.split('/')[1]));
    for (const part of chunk(messageIds)) {
      const rows = await ctx.t.selectFrom('messages').selectAll('messages').where('messages.id', 'in', part).execute();
      for (const dto of await toMessageDtos(ctx.db, ctx.actor.companyId, rows)) out.push({ id: `${dto.ticketId}/${dto.id}`, value: dto });
    }
    return out;
  },
});
