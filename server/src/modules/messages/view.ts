// message/<ticketId>/<id>: the most recent 50 messages of each active ticket the user may see
// (tickets/view.ts decides which), each as GET /messages/{ticketId} answers it (dto.ts). Older
// messages stay on paginated REST.
import type { Message } from '@zapdesk/sync';
import { sql, type RawBuilder } from 'kysely';
import { selectArrays, type Database } from '../../db/database.ts';
import { chunk, defineView, type RowId, type VersionRow, type ViewContext } from '../../sync/views/types.ts';
import { ACTIVE_TICKET_TABLES, activeTicketsAudience, findActiveVisibleTickets } from '../tickets/view.ts';
import { groupBy } from '../../inbound/resolve.ts';
import { messagesById, toMessageDtos } from './dto.ts';

/** Messages per ticket in the client view. */
export const SYNCED_MESSAGES_PER_TICKET = 50;

/**
 * A window entry: the listed row itself (`id` and `version`, all a listing reads of it), with what
 * orders it (created_at, message id) and what its listed version is made of, so a window can be
 * brought up to date from the rows that changed (see `updateWindow`). A window's entries are its
 * part of the listing as they are: no copy of the rows is made per pull.
 */
type Entry = VersionRow & {
  messageId: number;
  createdAt: string;
  messageVersion: number;
  contactVersion: number;
  quotedMsgId: number | null;
  quotedVersion: number;
};

/**
 * A ticket's listed window, remembered under what it was read at: the ticket's message mark
 * (migration 20261127T000000: it moves with any change of the ticket's messages), its count of
 * messages removed (migration 20261129T190000) and the company's contacts counter (the values
 * show the sender's name).
 */
type Part = { mark: number; removed: number; contacts: number; entries: Entry[]; usedAt: number };

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

/** The columns every window read selects, in this order (WindowRow). */
const ENTRY_COLUMNS = sql`m.id, m.ticket_id, m.version, c.version as contact_version, q.version as quoted_version, q.ticket_id as quoted_ticket_id, m.created_at, m.quoted_msg_id`;
type WindowRow = [id: number, ticketId: number, version: number, contactVersion: number | null, quotedVersion: number | null, quotedTicketId: number | null, createdAt: string, quotedMsgId: number | null];

/**
 * The newest 50 messages of each ticket, each read from the (company, ticket, created_at) index
 * newest first and stopped at 50: a ticket's older history is never read (a window function over
 * the tickets' messages read all of them, 10 ms for 20 tickets of 400 messages against 0.7 ms). On
 * SQLite that index also holds the columns read here (migration 20261129T040000), so the windows
 * never touch the table's pages. Rows come as arrays (selectArrays): a pull under traffic reads
 * thousands of them, and an object per row cost as much as the read.
 * SQLite: one limited select per ticket, joined by UNION ALL; PostgreSQL: a LATERAL join.
 */
async function windowRows(ctx: ViewContext, ticketIds: number[]): Promise<WindowRow[]> {
  const companyId = ctx.actor.companyId;
  const newest = (ticket: RawBuilder<unknown>) =>
    sql`select id, ticket_id, version, contact_id, quoted_msg_id, created_at from messages where company_id = ${companyId} and ticket_id = ${ticket} order by created_at desc, id desc limit ${SYNCED_MESSAGES_PER_TICKET}`;
  const windows =
    ctx.dialect === 'postgres'
      ? sql`(select w.* from unnest(${sql.val(ticketIds)}::int[]) as t(ticket_id) cross join lateral (${newest(sql.ref('t.ticket_id'))}) w)`
      : sql`(${sql.join(ticketIds.map((id) => sql`select * from (${newest(sql.val(id))})`), sql` union all `)})`;
  const query = sql`
    select ${ENTRY_COLUMNS}
    from ${windows} m
    left join contacts c on c.id = m.contact_id
    left join messages q on q.id = m.quoted_msg_id`.compile(ctx.db.withoutPlugins());
  return (await selectArrays(ctx.db, query)) as WindowRow[];
}

/**
 * SQLite: the messages of each ticket that changed after the mark its window was read at
 * (migration 20261129T190000), however old, with what a window entry holds. CROSS JOIN keeps
 * SQLite's join order (the marks' index, ticket by ticket): left to choose, it walked every message
 * of the company for a few dozen tickets.
 */
async function changedRows(ctx: ViewContext, since: Map<number, number>): Promise<WindowRow[]> {
  const pairs = sql.join([...since].map(([ticketId, mark]) => sql`(${sql.val(ticketId)}, ${sql.val(mark)})`));
  const query = sql`
    with since (ticket_id, mark) as (values ${pairs})
    select ${ENTRY_COLUMNS}
    from since s
    cross join message_marks mm on mm.company_id = ${ctx.actor.companyId} and mm.ticket_id = s.ticket_id and mm.mark > s.mark
    cross join messages m on m.id = mm.message_id and m.company_id = mm.company_id and m.ticket_id = mm.ticket_id
    left join contacts c on c.id = m.contact_id
    left join messages q on q.id = m.quoted_msg_id`.compile(ctx.db.withoutPlugins());
  return (await selectArrays(ctx.db, query)) as WindowRow[];
}

const listedVersion = (messageVersion: number, contactVersion: number, quotedVersion: number) => `${messageVersion}:${contactVersion}.${quotedVersion}`;

function toEntry([messageId, ticketId, messageVersion, contact, quoted, , createdAt, quotedMsgId]: WindowRow): Entry {
  const contactVersion = contact ?? 0;
  const quotedVersion = quoted ?? 0;
  return { id: `${ticketId}/${messageId}`, version: listedVersion(messageVersion, contactVersion, quotedVersion), messageId, createdAt, messageVersion, contactVersion, quotedMsgId, quotedVersion };
}

/** A quote of another ticket's message moves with that ticket's mark, not this one's: such a window is not kept. */
const quotesElsewhere = (r: WindowRow) => r[5] !== null && r[5] !== r[1];

/** Newest first, as the windows are read (created_at desc, id desc; SQLite compares text as JS does here). */
const newestFirst = (a: Entry, b: Entry) => (a.createdAt === b.createdAt ? b.messageId - a.messageId : a.createdAt < b.createdAt ? 1 : -1);

/** The newest 50 messages of each ticket, newest first; `cacheable` false when one quotes another ticket's message. */
async function readWindows(ctx: ViewContext, ticketIds: number[]) {
  const byTicket = new Map<number, { entries: Entry[]; cacheable: boolean }>();
  for (const id of ticketIds) byTicket.set(id, { entries: [], cacheable: true });
  for (const part of chunk(ticketIds, WINDOW_CHUNK)) {
    for (const r of await windowRows(ctx, part)) {
      const window = byTicket.get(r[1])!;
      window.entries.push(toEntry(r));
      if (quotesElsewhere(r)) window.cacheable = false;
    }
  }
  return byTicket;
}

/**
 * A kept window brought up to date by the rows of its ticket that changed since (all of them, in
 * or out of the window): a changed one in the window is replaced in its place (its time did not
 * move), new ones are merged in by time, a quote of a changed message takes its version, and the
 * newest 50 remain. Nothing left the ticket (`removed` did not move), so no row the window lacks can
 * be among the newest 50 but a changed one. Undefined when it cannot be (a row changed its place in
 * the order, or quotes another ticket): read it whole. Nothing that shows changed: the same array.
 */
function updateWindow(entries: Entry[], changed: WindowRow[]): Entry[] | undefined {
  const rowOf = new Map<number, WindowRow>();
  for (const r of changed) {
    if (quotesElsewhere(r)) return undefined;
    rowOf.set(r[0], r);
  }
  let replaced = 0;
  let moved = false;
  const kept = new Array<Entry>(entries.length);
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!;
    const r = rowOf.get(e.messageId);
    let next = e;
    if (r) {
      if (r[6] !== e.createdAt) return undefined;
      replaced++;
      const entry = toEntry(r);
      if (entry.version !== e.version) next = entry;
    } else if (e.quotedMsgId !== null) {
      const quoted = rowOf.get(e.quotedMsgId);
      if (quoted && quoted[2] !== e.quotedVersion) next = { ...e, version: listedVersion(e.messageVersion, e.contactVersion, quoted[2]), quotedVersion: quoted[2] };
    }
    if (next !== e) moved = true;
    kept[i] = next;
  }
  if (replaced === rowOf.size) return moved ? kept : entries;
  // The rows new to the window, newest first, merged into the kept ones (in order already), up to 50.
  const incoming: Entry[] = [];
  for (const r of rowOf.values()) if (!entries.some((e) => e.messageId === r[0])) incoming.push(toEntry(r));
  incoming.sort(newestFirst);
  const merged: Entry[] = [];
  let i = 0;
  let j = 0;
  while (merged.length < SYNCED_MESSAGES_PER_TICKET && (i < kept.length || j < incoming.length)) {
    const k = kept[i];
    merged.push(k === undefined || (j < incoming.length && newestFirst(incoming[j]!, k) < 0) ? incoming[j++]! : (i++, k));
  }
  return merged;
}

async function readMarks(ctx: ViewContext, ticketIds: number[]): Promise<Map<number, { mark: number; removed: number }>> {
  const marks = new Map<number, { mark: number; removed: number }>();
  const removed = ctx.dialect === 'sqlite' ? sql<number>`removed` : sql<number>`0`;
  for (const part of chunk(ticketIds)) {
    const rows = await ctx.db.selectFrom('ticketMessageMarks').select(['ticketId', 'mark', removed.as('removed')]).where('ticketId', 'in', part).execute();
    for (const r of rows) marks.set(r.ticketId, { mark: r.mark, removed: r.removed });
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
    return [...(await readWindows(ctx, ticketIds)).values()].flatMap((w) => w.entries);
  },
  // In a pull: one part per ticket, the unchanged ones as the same arrays as before.
  async listSegments(ctx) {
    const ticketIds = (await findActiveVisibleTickets(ctx)).map((r) => r.id);
    const contacts = ctx.tableVersions?.get('contacts');
    if (contacts === undefined) return [...(await readWindows(ctx, ticketIds)).values()].map((w) => w.entries);

    // The marks are read before the windows: a window is at least as new as the mark it is kept
    // under, so a change in between only costs one more read of that ticket next time.
    const now = Date.now();
    const parts = partsOf(ctx.db, now);
    const marks = await readMarks(ctx, ticketIds);
    const markOf = (id: number) => marks.get(id) ?? { mark: 0, removed: 0 };
    const stale = ticketIds.filter((id) => {
      const part = parts.get(id);
      return !part || part.mark !== markOf(id).mark || part.contacts !== contacts;
    });
    // SQLite knows which rows changed since a mark: a kept window with nothing removed since and the
    // same contacts is brought up to date from those; any other is read whole.
    const since = new Map<number, number>();
    if (ctx.dialect === 'sqlite') {
      for (const id of stale) {
        const part = parts.get(id);
        if (part && part.contacts === contacts && part.removed === markOf(id).removed) since.set(id, part.mark);
      }
    }
    const updated = new Map<number, Entry[]>();
    if (since.size) {
      const rows: WindowRow[] = [];
      for (const batch of chunk([...since], WINDOW_CHUNK)) rows.push(...(await changedRows(ctx, new Map(batch))));
      const changed = groupBy(rows, (r) => r[1]);
      for (const id of since.keys()) {
        const entries = updateWindow(parts.get(id)!.entries, changed.get(id) ?? []);
        if (entries) updated.set(id, entries);
      }
    }
    const whole = stale.filter((id) => !updated.has(id));
    const fresh = whole.length ? await readWindows(ctx, whole) : undefined;
    return ticketIds.map((id) => {
      const { mark, removed } = markOf(id);
      const window = fresh?.get(id) ?? (updated.has(id) ? { entries: updated.get(id)!, cacheable: true } : undefined);
      if (!window) {
        const part = parts.get(id)!;
        part.usedAt = now;
        return part.entries;
      }
      if (window.cacheable) parts.set(id, { mark, removed, contacts, entries: window.entries, usedAt: now });
      else parts.delete(id);
      return window.entries;
    });
  },
  async getValues(ctx, ids) {
    const out: { id: RowId; value: Message }[] = [];
    const messageIds = (ids as string[]).map((id) => Number(id.split('/')[1]));
    for (const part of chunk(messageIds)) {
      const { rows } = await messagesById(ctx.db, { companyId: ctx.actor.companyId, ids: part });
      for (const dto of await toMessageDtos(ctx.db, ctx.actor.companyId, rows)) out.push({ id: `${dto.ticketId}/${dto.id}`, value: dto });
    }
    return out;
  },
});
