// SQLite's message search index fed after the commit (message-index.ts, migration
// 20261128T221500): stored messages wait in a queue, are indexed in batches, and a search indexes
// what waits before it reads; deleting or editing a message, queued or indexed, leaves the index
// exactly right. On PostgreSQL the index is kept in the transaction: GET /tickets finds at once there too.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { seedTenant, seedTicket } from '../../test/seed.ts';
import { indexQueuedMessages } from './message-index.ts';
import { tenant } from './tenant.ts';

describe('message search index on sqlite', () => {
  let t: TestApp;
  let companyId: number;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    companyId = (await seedTenant(t)).company.id;
  });
  afterAll(async () => t.close());

  let seq = 0;
  /** Messages with these bodies in a new ticket; their ids. */
  async function store(bodies: string[]) {
    const ticket = await seedTicket(t, companyId);
    const rows = await tenant(t.db, companyId)
      .insertInto('messages', bodies.map((body) => ({ wid: `mi-${++seq}`, ticketId: ticket.id, contactId: ticket.contactId, body })))
      .returning('messages.id')
      .execute();
    return { ticketId: ticket.id, ids: rows.map((r) => r.id) };
  }
  /** The tickets the index names for a word (what the search reads). */
  const ticketsMatching = async (word: string) =>
    (await sql<{ id: number }>`SELECT DISTINCT rowid >> 32 AS id FROM ticket_messages_fts WHERE ticket_messages_fts MATCH ${word} ORDER BY 1`.execute(t.db)).rows.map((r) => r.id);
  const queued = async () => (await sql<{ n: number }>`SELECT count(*) AS n FROM ticket_messages_fts_queue`.execute(t.db)).rows[0]!.n;
  const intact = async () => {
    // FTS5 checks its own structure; and a 'delete' of a row the index never had leaves its words
    // counted in fewer documents than none (the vocabulary shows it).
    await sql`INSERT INTO ticket_messages_fts(ticket_messages_fts) VALUES ('integrity-check')`.execute(t.db);
    const negative = await sql<{ term: string }>`SELECT term FROM ticket_messages_vocab WHERE doc < 1 OR cnt < 1`.execute(t.db);
    expect(negative.rows).toEqual([]);
  };
  /** In how many indexed messages a word is (a message indexed twice counts twice). */
  const documents = async (word: string) => (await sql<{ doc: number }>`SELECT doc FROM ticket_messages_vocab WHERE term = ${word}`.execute(t.db)).rows[0]?.doc ?? 0;

  it('queues what is stored, indexes it in a pass, and the index names each message’s ticket', async () => {
    await indexQueuedMessages(t.db, 'sqlite');
    const a = await store(['entrega atrasada', 'quero o boleto']);
    const b = await store(['boleto pago']);
    expect(await queued()).toBe(3);
    expect(await ticketsMatching('boleto')).toEqual([]);
    expect(await indexQueuedMessages(t.db, 'sqlite')).toBe(3);
    expect(await queued()).toBe(0);
    expect(await ticketsMatching('boleto')).toEqual([a.ticketId, b.ticketId]);
    expect(await ticketsMatching('atrasada')).toEqual([a.ticketId]);
    await intact();
  });

  it('deletes and edits: a queued message only leaves the queue, an indexed one leaves the index', async () => {
    const indexed = await store(['garantia vencida', 'nota fiscal']);
    await indexQueuedMessages(t.db, 'sqlite');
    const waiting = await store(['reembolso negado', 'troca aprovada']);
    const db = tenant(t.db, companyId);
    // Indexed: deleted, and edited (the old words go, the new ones come).
    await db.deleteFrom('messages').where('messages.id', '=', indexed.ids[0]!).execute();
    await db.updateTable('messages').set((eb) => ({ body: 'cupom fiscal', version: eb('messages.version', '+', 1) })).where('messages.id', '=', indexed.ids[1]!).execute();
    // Queued: deleted, and edited before the pass.
    await db.deleteFrom('messages').where('messages.id', '=', waiting.ids[0]!).execute();
    await db.updateTable('messages').set((eb) => ({ body: 'troca recusada', version: eb('messages.version', '+', 1) })).where('messages.id', '=', waiting.ids[1]!).execute();
    expect(await queued()).toBe(1);
    expect(await ticketsMatching('garantia')).toEqual([]);
    expect(await ticketsMatching('nota')).toEqual([]);
    expect(await ticketsMatching('cupom')).toEqual([indexed.ticketId]);
    expect(await indexQueuedMessages(t.db, 'sqlite')).toBe(1);
    expect(await ticketsMatching('reembolso')).toEqual([]);
    expect(await ticketsMatching('aprovada')).toEqual([]);
    expect(await ticketsMatching('recusada')).toEqual([waiting.ticketId]);
    expect(await documents('recusada')).toBe(1);
    expect(await documents('cupom')).toBe(1);
    expect(await documents('reembolso')).toBe(0);
    await intact();
  });

  it('indexes a backlog larger than one batch in one call', async () => {
    const many = await store(Array.from({ length: 4_500 }, (_, i) => `pedido numero${i}`));
    expect(await indexQueuedMessages(t.db, 'sqlite')).toBe(4_500);
    expect(await queued()).toBe(0);
    expect(await ticketsMatching('numero4499')).toEqual([many.ticketId]);
    await intact();
  });
});

describe.each(DIALECTS)('GET /tickets?searchParam on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('finds a message stored a moment ago, without waiting for the index job', async () => {
    const { company, adminSession } = await seedTenant(t);
    const ticket = await seedTicket(t, company.id);
    await tenant(t.db, company.id).insertInto('messages', { wid: `now-${dialect}`, ticketId: ticket.id, contactId: ticket.contactId, body: 'protocolo xyzzy123' }).execute();
    const found = await t.request('GET', '/tickets?showAll=true&searchParam=xyzzy123', { token: adminSession.token });
    expect(found.status).toBe(200);
    expect(found.body.tickets.map((x: { id: number }) => x.id)).toEqual([ticket.id]);
  });
});
