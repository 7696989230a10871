// Deliveries that arrive together are stored together (one transaction on SQLite, group-commit.ts):
// each keeps its own outcome, a failing one does not take the others down, and nothing is half-kept.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboundMessage } from '../channels/types.ts';
import type { AppDeps } from '../context.ts';
import { openDatabase } from '../db/database.ts';
import { tenant } from '../db/tenant.ts';
import { write } from '../db/write.ts';
import { deleteConnection } from '../modules/whatsapps/service.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { newNumber, setupDesk } from '../../test/conversation.ts';
import { seedTenant, seedTicket } from '../../test/seed.ts';
import { runGrouped, type Store } from './group-commit.ts';
import { ingest } from './ingest.ts';

const text = (id: string, from: InboundMessage['from'], body: string): InboundMessage => ({ id, from, fromMe: false, timestamp: new Date().toISOString(), body });

describe.each(DIALECTS)('deliveries arriving together on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  it('keep their own outcomes: new ones stored, redeliveries ignored, one that fails fails alone with its file removed', async () => {
    const desk = await setupDesk(t);
    const conn = { id: desk.connectionId, companyId: desk.companyId };
    const numbers = Array.from({ length: 30 }, () => newNumber());
    const earlier = await Promise.all(numbers.slice(0, 10).map((n, i) => ingest(t.deps, conn, text(`E${i}-${n}`, { number: n }, 'earlier'))));
    expect(earlier.every((r) => r.status === 'stored')).toBe(true);

    // Another company's connection, deleted on another instance (several on one PostgreSQL) after
    // this one read its settings: this instance keeps them 2 s, as nothing told it (a delete here
    // would have). Its delivery fails on the foreign key, in the middle of everyone else's.
    const gone = await setupDesk(t);
    const goneConn = { id: gone.connectionId, companyId: gone.companyId };
    await ingest(t.deps, goneConn, text(`G0-${newNumber()}`, { number: newNumber() }, 'before the delete'));
    // Its own database handle (its writes and their after-commit effects are its own) and session manager.
    const { db: otherDb } = openDatabase(t.deps.config.databaseUrl);
    try {
      const otherInstance: AppDeps = { ...t.deps, db: otherDb, sessions: Object.create(t.deps.sessions) as AppDeps['sessions'] };
      await write(otherInstance, (tx) => deleteConnection(tx, gone.companyId, gone.connectionId));
    } finally {
      await otherDb.destroy();
    }

    const photoFrom = newNumber();
    const photo: InboundMessage = { ...text(`P-${photoFrom}`, { number: photoFrom }, 'photo'), mediaType: 'image', media: { data: Buffer.from('jpeg bytes'), mimeType: 'image/jpeg', fileName: 'photo.jpg' } };
    const results = await Promise.allSettled([
      ...numbers.map((n, i) => ingest(t.deps, conn, text(`N${i}-${n}`, { number: n }, `new ${i}`))),
      ...numbers.slice(0, 10).map((n, i) => ingest(t.deps, conn, text(`E${i}-${n}`, { number: n }, 'earlier'))),
      ingest(t.deps, goneConn, text(`G1-${newNumber()}`, { number: newNumber() }, 'after the delete')),
      ingest(t.deps, conn, photo),
    ]);
    const outcome = (r: PromiseSettledResult<{ status: string }>) => (r.status === 'fulfilled' ? r.value.status : 'failed');
    expect(results.slice(0, 30).map(outcome)).toEqual(Array(30).fill('stored'));
    expect(results.slice(30, 40).map(outcome)).toEqual(Array(10).fill('duplicate'));
    expect(outcome(results[40]!)).toBe('failed');
    expect(outcome(results[41]!)).toBe('stored');

    const db = tenant(t.db, desk.companyId);
    const messages = await db.selectFrom('messages').select('messages.wid').where('messages.whatsappId', '=', desk.connectionId).execute();
    expect(messages).toHaveLength(10 + 30 + 1);
    const tickets = await db.selectFrom('tickets').select(['tickets.id', 'tickets.unreadMessages', 'tickets.lastMessage']).where('tickets.whatsappId', '=', desk.connectionId).execute();
    expect(tickets).toHaveLength(31);
    expect(tickets.map((x) => x.unreadMessages).sort()).toEqual([...Array(21).fill(1), ...Array(10).fill(2)].sort());
    const photoTicket = await desk.ticketOf(photoFrom);
    expect(photoTicket).toMatchObject({ unreadMessages: 1, lastMessage: 'photo' });
    // One file for the photo, whatever attempts the batch took.
    expect(readdirSync(path.join(t.deps.config.mediaDir, String(desk.companyId), 'tickets', String(photoTicket!.id)))).toHaveLength(1);
    expect(await tenant(t.db, gone.companyId).selectFrom('messages').select('messages.id').execute()).toHaveLength(1);
  });

  it('two deliveries of one contact under different keys (LID and number) in one batch make one ticket', async () => {
    const desk = await setupDesk(t);
    const conn = { id: desk.connectionId, companyId: desk.companyId };
    const number = newNumber();
    const lid = `${Date.now()}77@lid`;
    const [a, b] = await Promise.all([
      ingest(t.deps, conn, text(`K1-${number}`, { number, jid: `${number}@s.whatsapp.net`, lid, name: 'Two Keys' }, 'by lid')),
      ingest(t.deps, conn, text(`K2-${number}`, { number, jid: `${number}@s.whatsapp.net` }, 'by number')),
    ]);
    expect(a).toMatchObject({ status: 'stored' });
    expect(b).toMatchObject({ status: 'stored', ticketId: a.status === 'stored' ? a.ticketId : -1 });
    const ticket = await desk.ticketOf(number);
    expect(ticket).toMatchObject({ unreadMessages: 2, status: 'pending' });
    const rows = await tenant(t.db, desk.companyId).selectFrom('messages').select('messages.wid').where('messages.ticketId', '=', ticket!.id).execute();
    expect(rows.map((r) => r.wid).sort()).toEqual([`K1-${number}`, `K2-${number}`]);
  });

  it('store every text of a batch exactly as sent, and each ticket its last preview and unread count', async () => {
    const desk = await setupDesk(t);
    const conn = { id: desk.connectionId, companyId: desk.companyId };
    // PostgreSQL writes a batch as one array per column (db/unnest.ts): these must survive its quoting.
    const bodies = ['say "hi"', 'back\\slash \\"', '{braces}, commas, {"json": [1, 2]}', 'NULL', '', 'line one\nline two\ttab', 'emoji 😀 ção', "it's; drop table messages; --"];
    const [first, second] = [newNumber(), newNumber()];
    const results = await Promise.all(bodies.map((body, i) => ingest(t.deps, conn, text(`Q${i}-${first}`, { number: i % 2 ? second : first }, body))));
    expect(results.every((r) => r.status === 'stored')).toBe(true);
    for (const [number, parity] of [[first, 0], [second, 1]] as const) {
      const ticket = (await desk.ticketOf(number))!;
      const rows = await tenant(t.db, desk.companyId).selectFrom('messages').select(['messages.body', 'messages.mediaUrl', 'messages.quotedMsgId']).where('messages.ticketId', '=', ticket.id).orderBy('messages.id').execute();
      const sent = bodies.filter((_, i) => i % 2 === parity);
      expect(rows).toEqual(sent.map((body) => ({ body, mediaUrl: null, quotedMsgId: null })));
      expect(ticket).toMatchObject({ unreadMessages: sent.length, lastMessage: sent.at(-1) });
    }
  });

  it('contacts looked up for a whole batch still learn their phone number and name', async () => {
    const desk = await setupDesk(t);
    const conn = { id: desk.connectionId, companyId: desk.companyId };
    const lid = `${Date.now()}55@lid`;
    const others = Array.from({ length: 20 }, () => newNumber());
    const first = await ingest(t.deps, conn, text(`B0-${lid}`, { lid }, 'lid only'));
    await Promise.all(others.map((n, i) => ingest(t.deps, conn, text(`B0-${n}`, { number: n }, `first ${i}`))));
    const number = newNumber();
    const results = await Promise.all([
      ...others.map((n, i) => ingest(t.deps, conn, text(`B1-${n}`, { number: n, name: `Named ${i}` }, `second ${i}`))),
      ingest(t.deps, conn, text(`B1-${lid}`, { lid, number, jid: `${number}@s.whatsapp.net`, name: 'Now Known' }, 'with number')),
    ]);
    expect(results.every((r) => r.status === 'stored')).toBe(true);
    expect(results[20]).toMatchObject({ ticketId: first.status === 'stored' ? first.ticketId : -1 });
    const db = tenant(t.db, desk.companyId);
    expect(await db.selectFrom('contacts').selectAll().where('contacts.lid', '=', lid).executeTakeFirstOrThrow()).toMatchObject({ number, jid: `${number}@s.whatsapp.net`, name: 'Now Known' });
    const named = await db.selectFrom('contacts').select(['contacts.number', 'contacts.name']).where('contacts.number', 'in', others).execute();
    expect(named.map((c) => c.name).sort()).toEqual(others.map((_, i) => `Named ${i}`).sort());
    const tickets = await db.selectFrom('tickets').select('tickets.unreadMessages').where('tickets.whatsappId', '=', desk.connectionId).execute();
    expect(tickets.map((x) => x.unreadMessages)).toEqual(Array(21).fill(2));
  });

  it('deliveries reaching the queue in one turn of the event loop, each after awaits of its own, are stored in one batch', async () => {
    const { company } = await seedTenant(t);
    const batches: string[][] = [];
    const store: Store<string, string> = async (_tx, items) => {
      batches.push(items);
      return items;
    };
    // As deliveries come from the channels: started together, each reaching the queue a few
    // awaits later than the one before (their own lookups and locks).
    const arrive = async (item: string, awaits: number) => {
      for (let i = 0; i < awaits; i++) await Promise.resolve();
      return runGrouped(t.deps, company.id, item, store);
    };
    expect(await Promise.all(['a', 'b', 'c', 'd'].map((item, i) => arrive(item, 3 * i)))).toEqual(['a', 'b', 'c', 'd']);
    expect(batches).toEqual([['a', 'b', 'c', 'd']]);
    // One arriving in a later turn, with nothing else under way, has a batch of its own.
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await arrive('e', 0)).toBe('e');
    expect(batches).toEqual([['a', 'b', 'c', 'd'], ['e']]);
  });

  it('one by one, a delivery whose statement deadlocked is tried again in its savepoint; one failing for good fails alone', async () => {
    const { company } = await seedTenant(t);
    const db = tenant(t.db, company.id);
    const ticket = await seedTicket(t, company.id);
    const calls = new Map<string, number>();
    // Stores one message per item. A batch fails as a whole (so the items go one by one); then
    // 'flaky' meets a deadlock twice before it goes through, and 'broken' always fails.
    const store: Store<string, number> = async (tx, items) => {
      if (items.length > 1) throw new Error('the batch fails: one by one now');
      const item = items[0]!;
      const n = (calls.get(item) ?? 0) + 1;
      calls.set(item, n);
      const row = await tenant(tx.db, company.id)
        .insertInto('messages', { wid: `gc-${dialect}-${item}-${n}`, ticketId: ticket.id, contactId: ticket.contactId, body: item })
        .returning('messages.id')
        .executeTakeFirstOrThrow();
      if (item === 'flaky' && n < 3) throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      if (item === 'broken') throw new Error('a bad row');
      return [row.id];
    };
    const items = ['first', 'flaky', 'broken', 'last'];
    const settled = await Promise.allSettled(items.map((item) => runGrouped(t.deps, company.id, item, store)));
    expect(settled.map((r) => (r.status === 'rejected' ? String(r.reason) : r.status))).toEqual(['fulfilled', 'fulfilled', 'Error: a bad row', 'fulfilled']);
    expect(calls.get('flaky')).toBe(3);
    expect(calls.get('broken')).toBe(1);
    // What the failed attempts wrote was undone with their savepoints: one row per stored item.
    const bodies = (await db.selectFrom('messages').select('messages.body').where('messages.ticketId', '=', ticket.id).execute()).map((m) => m.body);
    expect(bodies.sort()).toEqual(['first', 'flaky', 'last']);
  });
});
