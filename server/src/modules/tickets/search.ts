// GET /tickets?searchParam: the tickets of the list's filters that have a message matching every
// word, or whose contact (name, number) does, newest activity first. The last word matches as a
// prefix (it may be still being typed: "entreg" finds "entrega"); the words before it are whole
// words ("pedido atrasado" does not find "pedidos atrasados").
//
// Full-text indexes (DESIGN §3: never LIKE over messages) answer "which messages match", and that
// set is as large as the word is common: "pedido" is in 15% of a million messages, and turning
// 150,000 message ids into tickets costs hundreds of milliseconds. A page needs only the first
// 40 tickets, so the search picks its way by how many messages and contacts match (messages
// counted up to setLimit; the matching contacts' ids read up front unless there are very many):
// - few: the set of matching tickets from the indexes (SQLite FTS5 ticket_messages_fts, whose rowid
//   names the ticket, and contacts_fts; PostgreSQL tsvector + GIN), filtered and sorted by the
//   database on keys only; the page's rows are read afterwards;
// - many: walk the filtered tickets newest first in batches, asking the index which of the batch's
//   tickets have a matching message (on SQLite the rowid ranges ticket_id·2^32 … of runs of nearby
//   ids, on PostgreSQL the batch's ticket ids), never reading message bodies, and stopping when the
//   page is full. A common word fills a page within a few dozen tickets. Each batch is sized by the
//   share of matches so far; when that share says the walk would pass walkLimit tickets, the
//   search falls back to the set (a low share means few matches, which the set reads cheaply).
// On SQLite the last word is first spelt out as the index's words that start with it
// (ticket_messages_vocab): FTS5 merges a prefix's whole doclists on every query, and seeks within
// named words. Both ways give the same page (search.test.ts compares them with a plain reading).
import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database, Dialect } from '../../db/database.ts';
import { indexQueuedMessages } from '../../db/message-index.ts';
import type { DB } from '../../db/schema.ts';
import { tenant } from '../../db/tenant.ts';
import type { TicketRow } from './dto.ts';

const MAX_TERMS = 8;
/** Tickets between two of a batch that are cheaper to step over in one rowid range than to seek past. */
const SPAN_GAP = 32;

/** spellLimit: a prefix starting that many words of the index or more stays a prefix query (merged by FTS5). */
export type SearchTuning = { setLimit: number; walkLimit: number; spellLimit: number };
/** Chosen with bench/ticket-search.bench.ts. */
export const DEFAULT_TUNING: SearchTuning = { setLimit: 1_000, walkLimit: 2_000, spellLimit: 64 };

/** Letters and digits only: nothing the user types can reach the FTS query syntax. */
export function searchTerms(input: string): string[] {
  return (input.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_TERMS);
}

type TicketQuery = SelectQueryBuilder<DB, 'tickets', TicketRow>;
type Window = { offset: number; limit: number };
/** What the indexes are asked: SQLite FTS5 queries for messages and contacts, or a PostgreSQL tsquery. */
type Search = { terms: string[]; messages: string; contacts: string };

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
  // SQLite indexes messages after their commit, in batches: what was stored just now goes in first.
  await indexQueuedMessages(db, dialect);
  const search = dialect === 'sqlite' ? await spellSqliteSearch(db, terms, tuning.spellLimit) : { terms, messages: tsQuery(terms), contacts: tsQuery(terms) };
  // Matching contacts are read up front unless there are more than a walk could test in process
  // for the same cost (reading an id costs a small part of reading and testing a contact).
  const contacts = await findMatchingContacts(db, dialect, companyId, search, 2 * tuning.walkLimit + 1);
  const messages = await countMatchingMessages(db, dialect, companyId, search, tuning.setLimit + 1);
  if (messages === 0 && contacts?.size === 0) return [];
  if (messages + (contacts?.size ?? Infinity) > tuning.setLimit) {
    const walked = await walkTickets(db, dialect, companyId, base, search, contacts, window, tuning.walkLimit);
    if (walked) return pageRows(db, companyId, walked);
  }
  const keys = base.clearSelect().select('tickets.id').where(searchCondition(dialect, companyId, search, contacts));
  const ids = await newestFirst(keys).limit(window.limit).offset(window.offset).execute();
  return pageRows(db, companyId, ids.map((r) => r.id));
}

/** The rows of the page's tickets, in the page's order (sorting and walking read keys only). */
async function pageRows(db: Database, companyId: number, ids: number[]): Promise<TicketRow[]> {
  if (ids.length === 0) return [];
  const rows = await tenant(db, companyId).selectFrom('tickets').selectAll('tickets').where('tickets.id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

const newestFirst = <Q extends SelectQueryBuilder<DB, 'tickets', object>>(q: Q) => q.orderBy('tickets.updatedAt', 'desc').orderBy('tickets.id', 'desc') as Q;

const isLast = (terms: string[], i: number) => i === terms.length - 1;
const quote = (word: string) => `"${word.replaceAll('"', '""')}"`;
/** FTS5: `"w1" "w2"*` (implicit AND). */
const ftsMatch = (terms: string[]) => terms.map((t, i) => (isLast(terms, i) ? `${quote(t)}*` : quote(t))).join(' ');
// to_tsquery with `word:*` (prefix) rather than plainto_tsquery, so both dialects match alike.
const tsQuery = (terms: string[]) => terms.map((t, i) => (isLast(terms, i) ? `${t}:*` : t)).join(' & ');

/**
 * The FTS5 queries, the last word spelt out as the words of ticket_messages_fts it starts:
 * `"w1" AND ("entrega" OR "entregue")`. Only for a last word that folds to ASCII (letters without
 * accents and digits), where folding it here is certainly what the tokenizer does; and only the
 * strict continuations are read from the vocabulary (the word itself joins them unread), since
 * the vocabulary reads the doclist of every word it returns.
 */
async function spellSqliteSearch(db: Database, terms: string[], spellLimit: number): Promise<Search> {
  const native = { terms, messages: ftsMatch(terms), contacts: ftsMatch(terms) };
  const prefix = terms.at(-1)!.normalize('NFKD').replace(/\p{M}+/gu, '');
  if (spellLimit <= 0 || !/^[a-z0-9]+$/.test(prefix)) return native;
  // In byte order, every continuation of an ASCII prefix lies between prefix+U+0001 and the prefix
  // with its last character moved up one.
  const above = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const { rows } = await sql<{ term: string }>`SELECT term FROM ticket_messages_vocab WHERE term >= ${`${prefix}\u0001`} AND term < ${above} LIMIT ${spellLimit}`.execute(db);
  if (rows.length >= spellLimit) return native;
  const words = [prefix, ...rows.map((r) => r.term)].map(quote);
  const spelt = words.length === 1 ? words[0]! : `(${words.join(' OR ')})`;
  // An explicit AND: FTS5 reads no implicit one before a parenthesis.
  return { terms, messages: [...terms.slice(0, -1).map(quote), spelt].join(' AND '), contacts: native.contacts };
}

/**
 * Messages matching every term, counted up to `cap` (on SQLite the index is shared by every
 * company, so this counts theirs too: an estimate of the work, not a result).
 */
async function countMatchingMessages(db: Database, dialect: Dialect, companyId: number, search: Search, cap: number): Promise<number> {
  const { rows } =
    dialect === 'sqlite'
      ? await sql<{ n: number }>`SELECT count(*) AS n FROM (SELECT 1 FROM ticket_messages_fts WHERE ticket_messages_fts MATCH ${search.messages} LIMIT ${cap})`.execute(db)
      : await sql<{ n: number }>`SELECT count(*) AS n FROM (SELECT 1 FROM messages m WHERE m.company_id = ${companyId} AND m.body_tsv @@ to_tsquery('simple', ${search.messages}) LIMIT ${cap}) x`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * The contacts matching every term, when fewer than `cap` do (on SQLite of every company: the
 * callers only ask it about their company's tickets); undefined when more do.
 */
async function findMatchingContacts(db: Database, dialect: Dialect, companyId: number, search: Search, cap: number): Promise<Set<number> | undefined> {
  const { rows } =
    dialect === 'sqlite'
      ? await sql<{ id: number }>`SELECT rowid AS id FROM contacts_fts WHERE contacts_fts MATCH ${search.contacts} LIMIT ${cap}`.execute(db)
      : await sql<{ id: number }>`SELECT c.id FROM contacts c WHERE c.company_id = ${companyId} AND c.name_tsv @@ to_tsquery('simple', ${search.contacts}) LIMIT ${cap}`.execute(db);
  return rows.length < cap ? new Set(rows.map((r) => r.id)) : undefined;
}

/**
 * A condition on `tickets` true when a message of the ticket or its contact matches every term:
 * one IN over a union, so the database starts from the (few) matching tickets.
 */
function searchCondition(dialect: Dialect, companyId: number, search: Search, contacts: Set<number> | undefined): Expression<SqlBool> {
  const ids = contacts && JSON.stringify([...contacts]);
  if (dialect === 'sqlite') {
    const contactIds = ids ? sql`SELECT value FROM json_each(${ids})` : sql`SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH ${search.contacts}`;
    // The rowid of ticket_messages_fts is ticket_id * 2^32 + message id; tickets.company_id filters.
    return sql<SqlBool>`tickets.id IN (SELECT rowid >> 32 FROM ticket_messages_fts WHERE ticket_messages_fts MATCH ${search.messages}
      UNION SELECT ct.id FROM tickets ct WHERE ct.company_id = ${companyId} AND ct.contact_id IN (${contactIds}))`;
  }
  const contactIds = ids
    ? sql`SELECT value::int FROM json_array_elements_text(${ids}::json)`
    : sql`SELECT c.id FROM contacts c WHERE c.company_id = ${companyId} AND c.name_tsv @@ to_tsquery('simple', ${search.contacts})`;
  return sql<SqlBool>`tickets.id IN (SELECT m.ticket_id FROM messages m WHERE m.company_id = ${companyId} AND m.body_tsv @@ to_tsquery('simple', ${search.messages})
    UNION SELECT ct.id FROM tickets ct WHERE ct.company_id = ${companyId} AND ct.contact_id IN (${contactIds}))`;
}

/** Lower case, and on SQLite without accents: the form both the indexed text and the terms take. */
function folder(dialect: Dialect): (text: string) => string {
  if (dialect === 'postgres') return (text) => text.toLowerCase();
  // Most text is ASCII, and ASCII has nothing to fold.
  return (text) => (/^[ -~\s]*$/.test(text) ? text.toLowerCase() : text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase());
}

/** True for a text holding every term as a word, the last one as the start of a word, as the indexes tokenise. */
function matcher(dialect: Dialect, terms: string[]): (text: string) => boolean {
  const fold = folder(dialect);
  const patterns = terms.map((t, i) => new RegExp(`(?<![\\p{L}\\p{N}])${fold(t)}${isLast(terms, i) ? '' : '(?![\\p{L}\\p{N}])'}`, 'u'));
  return (text) => {
    const folded = fold(text);
    return patterns.every((p) => p.test(folded));
  };
}

/** The tickets among `ids` (all of the company) with a message matching the search. */
async function withMatchingMessage(db: Database, dialect: Dialect, companyId: number, ids: number[], search: Search): Promise<Set<number>> {
  if (dialect === 'postgres') {
    const { rows } = await sql<{ id: number }>`SELECT DISTINCT m.ticket_id AS id FROM messages m
      WHERE m.company_id = ${companyId} AND m.ticket_id = ANY(${ids}) AND m.body_tsv @@ to_tsquery('simple', ${search.messages})`.execute(db);
    return new Set(rows.map((r) => r.id));
  }
  // Runs of nearby ids, [first, last]: one FTS5 lookup per run, seeking to its rowid range. A run
  // may cover tickets outside the batch (other companies' too): only the batch's ids are kept.
  const sorted = [...ids].sort((a, b) => a - b);
  const runs: [number, number][] = [];
  for (const id of sorted) {
    const run = runs.at(-1);
    if (run && id - run[1] <= SPAN_GAP) run[1] = id;
    else runs.push([id, id]);
  }
  const { rows } = await sql<{ id: number }>`SELECT DISTINCT f.rowid >> 32 AS id FROM json_each(${JSON.stringify(runs)}) AS r CROSS JOIN ticket_messages_fts AS f
    WHERE f.ticket_messages_fts MATCH ${search.messages} AND f.rowid >= (r.value ->> 0) * 4294967296 AND f.rowid < ((r.value ->> 1) + 1) * 4294967296`.execute(db);
  const wanted = new Set(ids);
  return new Set(rows.map((r) => r.id).filter((id) => wanted.has(id)));
}

/**
 * The window's ticket ids, by walking `base` newest first in batches and asking which of each
 * batch's tickets match (contacts from `contacts`, or tested in process when too many match;
 * messages through the index). Undefined when the walk would pass `walkLimit` tickets before
 * filling the window, judged by the share of matches so far (the caller uses the set then).
 */
async function walkTickets(
  db: Database,
  dialect: Dialect,
  companyId: number,
  base: TicketQuery,
  search: Search,
  contacts: Set<number> | undefined,
  window: Window,
  walkLimit: number,
): Promise<number[] | undefined> {
  const contactMatches = matcher(dialect, search.terms);
  const wanted = window.offset + window.limit;
  // A deep page: the walk would pass its limit before reaching it, whatever the share of matches
  // (and its first batch would bind more contact ids than a statement takes).
  if (wanted > walkLimit) return undefined;
  const found: number[] = [];
  let walked = 0;
  let batchSize = Math.min(Math.ceil(wanted * 1.5), 2_000);
  // contact_id costs a read of the ticket's row where the index alone would do: only when a contact may match.
  const keys = base
    .clearSelect()
    .select(['tickets.id', 'tickets.updatedAt'])
    .$if(contacts === undefined || contacts.size > 0, (q) => q.select('tickets.contactId'));
  let last: { id: number; updatedAt: string } | undefined;
  while (found.length < wanted) {
    const after = last;
    const batch = await newestFirst(
      after
        ? keys.where((eb) =>
            eb.or([eb('tickets.updatedAt', '<', after.updatedAt), eb.and([eb('tickets.updatedAt', '=', after.updatedAt), eb('tickets.id', '<', after.id)])]),
          )
        : keys,
    )
      .limit(batchSize)
      .execute();
    if (batch.length === 0) break;
    walked += batch.length;
    last = batch.at(-1);
    const contactHit = contacts ?? (await findContactsInProcess(db, companyId, batch, contactMatches));
    const hit = new Set(batch.filter((r) => r.contactId !== undefined && contactHit.has(r.contactId)).map((r) => r.id));
    const rest = batch.filter((r) => !hit.has(r.id)).map((r) => r.id);
    if (rest.length > 0) for (const id of await withMatchingMessage(db, dialect, companyId, rest, search)) hit.add(id);
    for (const row of batch) if (hit.has(row.id)) found.push(row.id);
    if (batch.length < batchSize || found.length >= wanted) break;
    // The next batch: what the share of matches so far says the window still needs, and a margin.
    const needed = Math.ceil(((wanted - found.length) * walked) / Math.max(found.length, 1) * 1.2) + 16;
    if (walked + needed > walkLimit) return undefined;
    batchSize = Math.min(needed, 2_000);
  }
  return found.slice(window.offset, wanted);
}

/** The batch's contacts whose name or number matches, read and tested here. */
async function findContactsInProcess(db: Database, companyId: number, batch: { contactId?: number }[], matches: (text: string) => boolean): Promise<Set<number>> {
  const rows = await tenant(db, companyId)
    .selectFrom('contacts')
    .select(['contacts.id', 'contacts.name', 'contacts.number'])
    .where('contacts.id', 'in', [...new Set(batch.flatMap((r) => r.contactId ?? []))])
    .execute();
  return new Set(rows.filter((c) => matches(`${c.name} ${c.number}`)).map((c) => c.id));
}
