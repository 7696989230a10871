// GET /tickets?searchParam: the tickets of the list's filters that have a message matching every
// word, or whose contact (name, number) does, newest activity first. The last word matches as a
// prefix (it may be still being typed: "entreg" finds "entrega"); the words before it are whole
// words ("pedido atrasado" does not find "pedidos atrasados"). A prefix costs the index a merge of
// every word it starts, so only the last word pays it.
//
// Full-text indexes (DESIGN §3: never LIKE over messages) answer "which messages match", and that
// set is as large as the word is common: "pedido" is in 15% of a million messages, and turning
// 150,000 message ids into tickets costs hundreds of milliseconds. A page needs only the first
// 40 tickets, so the search picks its way by how many messages match (counted up to SET_LIMIT):
// - few: the set of matching tickets from the indexes (SQLite FTS5 ticket_messages_fts, whose rowid
//   names the ticket, and contacts_fts; PostgreSQL tsvector + GIN), filtered and ordered by the database;
// - many: walk the filtered tickets newest first and test each one's messages and contact in
//   process, stopping when the page is full. A common word fills a page within a few dozen
//   tickets. A walk that passes WALK_LIMIT tickets without filling the page falls back to the set.
// Both ways give the same page; the walk matches words as the indexes tokenise them (runs of
// letters and digits; on SQLite without accents, as `remove_diacritics 2` does).
import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database, Dialect } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';
import type { TicketRow } from './dto.ts';

const MAX_TERMS = 8;

export type SearchTuning = { setLimit: number; walkLimit: number };
/** Chosen with bench/ticket-search.bench.ts: up to ~10,000 matching messages the set is cheaper. */
export const DEFAULT_TUNING: SearchTuning = { setLimit: 10_000, walkLimit: 3_000 };

/** Letters and digits only: nothing the user types can reach the FTS query syntax. */
export function searchTerms(input: string): string[] {
  return (input.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_TERMS);
}

type TicketQuery = SelectQueryBuilder<DB, 'tickets', TicketRow>;
type Window = { offset: number; limit: number };

/** `base` (the list's filters, selecting whole ticket rows) narrowed to the search, one window of it. */
export async function findMatchingTickets(
  db: Database,
  dialect: Dialect,
  companyId: number,
  base: TicketQuery,
  terms: string[],
  window: Window,
  tuning: SearchTuning = DEFAULT_TUNING,
): Promise<TicketRow[]> {
  const count = await countMatches(db, dialect, companyId, terms, tuning.setLimit + 1);
  if (count === 0) return [];
  if (count > tuning.setLimit) {
    const walked = await walkTickets(db, dialect, companyId, base, terms, window, tuning.walkLimit);
    if (walked) return walked;
  }
  return newestFirst(base.where(ticketSearchCondition(dialect, companyId, terms)))
    .limit(window.limit)
    .offset(window.offset)
    .execute();
}

const newestFirst = (q: TicketQuery) => q.orderBy('tickets.updatedAt', 'desc').orderBy('tickets.id', 'desc');

const isLast = (terms: string[], i: number) => i === terms.length - 1;
/** FTS5: `"w1" "w2"*` (implicit AND); `whole` also makes the last word whole. */
const ftsMatch = (terms: string[], whole = false) => terms.map((t, i) => (isLast(terms, i) && !whole ? `"${t}"*` : `"${t}"`)).join(' ');
// to_tsquery with `word:*` (prefix) rather than plainto_tsquery, so both dialects match alike.
const tsQuery = (terms: string[], whole = false) => terms.map((t, i) => (isLast(terms, i) && !whole ? `${t}:*` : t)).join(' & ');

/**
 * Messages, and contacts, matching every term, each counted up to `cap` (on SQLite the indexes
 * are shared by every company, so this counts theirs too: an estimate of the work, not a result).
 * The last word taken whole first: when that alone passes the cap, the prefix (more) does too,
 * and a common word is known to be common without the index merging its prefix.
 */
async function countMatches(db: Database, dialect: Dialect, companyId: number, terms: string[], cap: number): Promise<number> {
  const whole = await countOnce(db, dialect, companyId, terms, cap, true);
  return whole >= cap ? whole : countOnce(db, dialect, companyId, terms, cap, false);
}

async function countOnce(db: Database, dialect: Dialect, companyId: number, terms: string[], cap: number, whole: boolean): Promise<number> {
  const { rows } =
    dialect === 'sqlite'
      ? await sql<{ n: number }>`SELECT max((SELECT count(*) FROM (SELECT 1 FROM ticket_messages_fts WHERE ticket_messages_fts MATCH ${ftsMatch(terms, whole)} LIMIT ${cap})),
          (SELECT count(*) FROM (SELECT 1 FROM contacts_fts WHERE contacts_fts MATCH ${ftsMatch(terms, whole)} LIMIT ${cap}))) AS n`.execute(db)
      : await sql<{ n: number }>`SELECT greatest((SELECT count(*) FROM (SELECT 1 FROM messages m WHERE m.company_id = ${companyId} AND m.body_tsv @@ to_tsquery('simple', ${tsQuery(terms, whole)}) LIMIT ${cap}) x),
          (SELECT count(*) FROM (SELECT 1 FROM contacts c WHERE c.company_id = ${companyId} AND c.name_tsv @@ to_tsquery('simple', ${tsQuery(terms, whole)}) LIMIT ${cap}) y)) AS n`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * A condition on `tickets` true when a message of the ticket or its contact matches every term:
 * one IN over a union, so the database starts from the (few) matching tickets.
 */
export function ticketSearchCondition(dialect: Dialect, companyId: number, terms: string[]): Expression<SqlBool> {
  if (dialect === 'sqlite') {
    const match = ftsMatch(terms);
    // The rowid of ticket_messages_fts is ticket_id * 2^32 + message id; tickets.company_id filters.
    return sql<SqlBool>`tickets.id IN (SELECT rowid >> 32 FROM ticket_messages_fts WHERE ticket_messages_fts MATCH ${match}
      UNION SELECT ct.id FROM tickets ct WHERE ct.company_id = ${companyId} AND ct.contact_id IN (SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH ${match}))`;
  }
  const query = tsQuery(terms);
  return sql<SqlBool>`tickets.id IN (SELECT m.ticket_id FROM messages m WHERE m.company_id = ${companyId} AND m.body_tsv @@ to_tsquery('simple', ${query})
    UNION SELECT ct.id FROM tickets ct JOIN contacts c ON c.id = ct.contact_id WHERE ct.company_id = ${companyId} AND c.company_id = ${companyId} AND c.name_tsv @@ to_tsquery('simple', ${query}))`;
}

/** Lower case, and on SQLite without accents: the form both the indexed text and the terms take. */
function folder(dialect: Dialect): (text: string) => string {
  if (dialect === 'postgres') return (text) => text.toLowerCase();
  // Most text is ASCII, and ASCII has nothing to fold.
  return (text) => (/^[ -~\s]*$/.test(text) ? text.toLowerCase() : text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase());
}

/** True for a text holding every term as a word, the last one as the start of a word. */
function matcher(dialect: Dialect, terms: string[]): (text: string) => boolean {
  const fold = folder(dialect);
  const patterns = terms.map((t, i) => new RegExp(`(?<![\\p{L}\\p{N}])${fold(t)}${isLast(terms, i) ? '' : '(?![\\p{L}\\p{N}])'}`, 'u'));
  return (text) => {
    const folded = fold(text);
    return patterns.every((p) => p.test(folded));
  };
}

/**
 * The window, by walking `base` newest first in growing batches and testing each ticket's contact
 * and messages; undefined when `walkLimit` tickets did not fill it (the caller uses the set then).
 */
async function walkTickets(
  db: Database,
  dialect: Dialect,
  companyId: number,
  base: TicketQuery,
  terms: string[],
  window: Window,
  walkLimit: number,
): Promise<TicketRow[] | undefined> {
  const matches = matcher(dialect, terms);
  const t = tenant(db, companyId);
  const wanted = window.offset + window.limit;
  const found: TicketRow[] = [];
  let walked = 0;
  let batchSize = Math.min(walkLimit, Math.ceil(wanted * 1.5));
  let last: TicketRow | undefined;
  while (found.length < wanted) {
    if (walked >= walkLimit) return undefined;
    const after = last;
    const batch = await newestFirst(
      after
        ? base.where((eb) =>
            eb.or([eb('tickets.updatedAt', '<', after.updatedAt), eb.and([eb('tickets.updatedAt', '=', after.updatedAt), eb('tickets.id', '<', after.id)])]),
          )
        : base,
    )
      .limit(batchSize)
      .execute();
    if (batch.length === 0) break;
    walked += batch.length;
    last = batch.at(-1);
    const contacts = await t
      .selectFrom('contacts')
      .select(['contacts.id', 'contacts.name', 'contacts.number'])
      .where('contacts.id', 'in', [...new Set(batch.map((r) => r.contactId))])
      .execute();
    const contactHit = new Set(contacts.filter((c) => matches(`${c.name} ${c.number}`)).map((c) => c.id));
    const hit = new Set(batch.filter((r) => contactHit.has(r.contactId)).map((r) => r.id));
    const rest = batch.filter((r) => !hit.has(r.id)).map((r) => r.id);
    if (rest.length > 0) {
      const messages = await t.selectFrom('messages').select(['messages.ticketId', 'messages.body']).where('messages.ticketId', 'in', rest).execute();
      for (const m of messages) if (!hit.has(m.ticketId) && matches(m.body)) hit.add(m.ticketId);
    }
    for (const row of batch) if (hit.has(row.id)) found.push(row);
    if (batch.length < batchSize) break;
    batchSize = Math.min(batchSize * 2, 1_000, walkLimit - walked);
  }
  return found.slice(window.offset, wanted);
}
