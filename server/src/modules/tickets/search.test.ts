// The ticket search's two ways (the set from the indexes, the walk newest first) give the same
// pages as a plain reading of the data, on both dialects; and GET /tickets searches that way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedTenant } from '../../../test/seed.ts';
import { tenant } from '../../db/tenant.ts';
import { findMatchingTickets, searchTerms, type SearchTuning } from './search.ts';

const WORDS = ['pedido', 'pedidos', 'entrega', 'boleto', 'troca', 'garantia', 'atrasado', 'nota', 'fiscal', 'reembolso'];
const NAMES = ['Maria Silva', 'Ana Souza', 'Bruno Prado', 'Carla Oliveira', 'Mariana Costa'];

type Seeded = { id: number; updatedAt: string; texts: string[]; contact: string };

/** A company with 60 tickets, their messages made of WORDS, and spread-out activity times. */
async function seedSearchable(t: TestApp, companyId: number): Promise<Seeded[]> {
  const db = tenant(t.db, companyId);
  const connection = await db.insertInto('whatsapps', { name: 'Line', token: `search-${companyId}-${Date.now()}` }).returning('whatsapps.id').executeTakeFirstOrThrow();
  const seeded: Seeded[] = [];
  let r = 7 * companyId;
  const next = (n: number) => (r = (r * 1103515245 + 12345) % 2147483648) % n;
  for (let i = 0; i < 60; i++) {
    const name = `${NAMES[i % NAMES.length]} ${i}`;
    const contact = await db.insertInto('contacts', { name, number: `5511${companyId}${String(i).padStart(6, '0')}` }).returning(['contacts.id', 'contacts.number']).executeTakeFirstOrThrow();
    const updatedAt = new Date(Date.UTC(2026, 0, 1) + next(1000) * 3_600_000).toISOString();
    const ticket = await db
      .insertInto('tickets', { uuid: crypto.randomUUID(), status: i % 3 === 0 ? 'open' : 'closed', contactId: contact.id, whatsappId: connection.id, updatedAt })
      .returning('tickets.id')
      .executeTakeFirstOrThrow();
    const texts = Array.from({ length: 1 + next(4) }, () => Array.from({ length: 2 + next(3) }, () => WORDS[next(WORDS.length)]).join(' '));
    // Accents and punctuation the tokenisers split on.
    if (i % 7 === 0) texts.push('Não recebi a NOTA-fiscal, João!');
    // A word that keeps a letter no accent folds away (the prefix stays an FTS5 prefix query).
    if (i % 11 === 0) texts.push('Entrega em Øresund');
    await db.insertInto('messages', texts.map((body, m) => ({ wid: `w${ticket.id}-${m}`, ticketId: ticket.id, contactId: contact.id, whatsappId: connection.id, body }))).execute();
    seeded.push({ id: ticket.id, updatedAt, texts, contact: `${name} ${contact.number}` });
  }
  return seeded;
}

/** The expected page, read plainly: every word whole, the last one as a prefix. */
function expected(seeded: Seeded[], q: string, offset: number, limit: number): number[] {
  const terms = searchTerms(q);
  const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const matches = (text: string) => terms.every((term, i) => words(text).some((w) => (i === terms.length - 1 ? w.startsWith(term) : w === term)));
  return seeded
    .filter((s) => matches(s.contact) || s.texts.some(matches))
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id)
    .slice(offset, offset + limit)
    .map((s) => s.id);
}

describe.each(DIALECTS)('ticket search on %s', (dialect) => {
  let t: TestApp;
  let companyId: number;
  let seeded: Seeded[];
  let otherIds: Set<number>;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    const tenantA = await seedTenant(t);
    const tenantB = await seedTenant(t);
    companyId = tenantA.company.id;
    seeded = await seedSearchable(t, companyId);
    otherIds = new Set((await seedSearchable(t, tenantB.company.id)).map((s) => s.id));
  });
  afterAll(async () => t.close());

  const ways: Record<string, SearchTuning> = {
    set: { setLimit: 1_000_000, walkLimit: 1_000, spellLimit: 64 },
    walk: { setLimit: 0, walkLimit: 1_000, spellLimit: 64 },
    // Up to 30 matching contacts are read up front, and the walk looks contacts up among them.
    'walk, matching contacts read first': { setLimit: 30, walkLimit: 1_000, spellLimit: 64 },
    'walk giving up, then set': { setLimit: 0, walkLimit: 5, spellLimit: 64 },
    // A prefix starting too many words of the index stays a prefix query.
    'set, prefixes not spelt out': { setLimit: 1_000_000, walkLimit: 1_000, spellLimit: 1 },
    'walk, prefixes not spelt out': { setLimit: 0, walkLimit: 1_000, spellLimit: 1 },
  };
  const queries = ['pedido', 'pedid', 'p', 'entrega', 'nota fisc', 'pedido atrasado', 'boleto troca garantia', 'maria', 'ana souza', 'souza 1', '5511', 'nota', 'joão', 'øres', 'xyz'];

  for (const [way, tuning] of Object.entries(ways)) {
    it(`${way}: the same pages as a plain reading, none of another company`, async () => {
      for (const q of queries) {
        for (const [offset, limit] of [[0, 7], [7, 7], [0, 100]] as const) {
          const base = tenant(t.db, companyId).selectFrom('tickets').selectAll('tickets');
          const rows = await findMatchingTickets(t.db, dialect, companyId, base, searchTerms(q), { offset, limit }, tuning);
          const ids = rows.map((r) => r.id);
          expect(ids, `${q} ${offset}+${limit}`).toEqual(expected(seeded, q, offset, limit));
          expect(ids.some((id) => otherIds.has(id))).toBe(false);
        }
      }
      // The plain reading found something for most queries, so the comparison had substance.
      expect(queries.filter((q) => expected(seeded, q, 0, 100).length > 0).length).toBeGreaterThan(9);
    });
  }

  // SQLite takes 32,766 values per statement (PostgreSQL 65,535, which would take this test 25 s there).
  it.runIf(dialect === 'sqlite')('answers a deep page of a search that matches every contact, without binding them all', { timeout: 120_000 }, async () => {
    const { company } = await seedTenant(t);
    const db = tenant(t.db, company.id);
    const N = 33_000;
    for (let i = 0; i < N; i += 3_000) {
      const contacts = await db.insertInto('contacts', Array.from({ length: Math.min(3_000, N - i) }, (_, k) => ({ name: `Cliente ${i + k}`, number: `5521${String(i + k).padStart(9, '0')}` }))).returning('contacts.id').execute();
      await db.insertInto('tickets', contacts.map((c) => ({ uuid: crypto.randomUUID(), contactId: c.id, status: 'open', lastMessage: '' }))).execute();
    }
    const base = tenant(t.db, company.id).selectFrom('tickets').selectAll('tickets');
    // Page 826 of 40: the walk once read 49,560 tickets in its first batch and bound their contacts (a 500).
    const rows = await findMatchingTickets(t.db, dialect, company.id, base, searchTerms('5521'), { offset: 32_000, limit: 40 }, { setLimit: 1_000, walkLimit: 2_000, spellLimit: 64 });
    expect(rows).toHaveLength(40);
    const newest = await db.selectFrom('tickets').select('tickets.id').orderBy('tickets.updatedAt', 'desc').orderBy('tickets.id', 'desc').limit(40).offset(32_000).execute();
    expect(rows.map((r) => r.id)).toEqual(newest.map((r) => r.id));
  });

  it('GET /tickets: the last word is a prefix, the others whole words; accents fold on SQLite', async () => {
    const { adminSession, company } = await seedTenant(t);
    const rows = await seedSearchable(t, company.id);
    const search = async (q: string) =>
      (await t.request('GET', `/tickets?showAll=true&searchParam=${encodeURIComponent(q)}`, { token: adminSession.token })).body.tickets.map((x: { id: number }) => x.id);
    expect(await search('nota fisc')).toEqual(expected(rows, 'nota fisc', 0, 40));
    expect((await search('nota fisc')).length).toBeGreaterThan(0);
    expect(await search('pedid atrasado')).toEqual([]);
    const joao = rows.filter((r) => r.texts.some((x) => x.includes('João'))).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id).map((r) => r.id);
    expect(await search('joão')).toEqual(joao);
    if (dialect === 'sqlite') expect(await search('joao')).toEqual(joao);
  });
});
