import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel } from '../channels/types.ts';
import { tenant } from '../db/tenant.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { seedTenant } from '../../test/seed.ts';
import { waitFor } from '../channels/testing.ts';
import { claimDueSchedules, runSchedulesOnce } from './schedules.ts';

// The job runs on a fake clock: `now` is passed in, nothing waits for a minute to pass.
const NOW = new Date('2030-03-15T15:04:05.000Z'); // 12:04:05 in São Paulo
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
const opts = (extra: object = {}) => ({ now: () => NOW, timeZone: 'America/Sao_Paulo', ...extra });

describe.each(DIALECTS)('scheduled-messages job on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  let seq = 0;

  /** A company with a contact and, unless told otherwise, a connected default simulator connection. */
  async function setup(withConnection = true) {
    const tn = await seedTenant(t);
    const tt = tenant(t.db, tn.company.id);
    const contact = await tt.insertInto('contacts', { name: 'Maria Clara Souza', number: `55219${String(80000000 + ++seq)}` }).returningAll().executeTakeFirstOrThrow();
    let connectionId: number | undefined;
    if (withConnection) {
      const conn = await tt.insertInto('whatsapps', { name: `Main ${seq}`, provider: 'simulator', isDefault: 1 }).returningAll().executeTakeFirstOrThrow();
      await t.deps.sessions.start(tn.company.id, conn.id);
      await t.deps.sessions.simulator.scan(conn.id);
      await t.deps.sessions.flush(conn.id);
      connectionId = conn.id;
    }
    const schedule = (values: { body?: string; sendAt?: string; ticketId?: number; mediaPath?: string; mediaName?: string; userId?: number | null } = {}) =>
      tt
        .insertInto('schedules', { body: values.body ?? 'Hello there', contactId: contact.id, userId: values.userId === undefined ? tn.admin.id : values.userId, sendAt: values.sendAt ?? ago(30_000), ticketId: values.ticketId ?? null, mediaPath: values.mediaPath ?? null, mediaName: values.mediaName ?? null })
        .returningAll()
        .executeTakeFirstOrThrow();
    const read = (id: number) => tt.selectFrom('schedules').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    /** What reached the simulated network, once the outbox sent what the job queued. */
    const outbox = async () => {
      await t.deps.outbox.idle();
      return connectionId ? t.deps.sessions.simulator.outbox(connectionId, contact.number) : [];
    };
    return { ...tn, contact, connectionId, schedule, read, outbox };
  }

  it('sends a due schedule once, renders its variables and marks it ENVIADA with sentAt', async () => {
    const s = await setup();
    // The greeting speaks the author's interface language.
    expect((await t.request('POST', '/users/set-language/pt', { token: s.adminSession.token })).status).toBe(200);
    const ticket = await tenant(t.db, s.company.id).insertInto('tickets', { uuid: `job-${++seq}`, contactId: s.contact.id }).returningAll().executeTakeFirstOrThrow();
    const due = await s.schedule({ body: '{{ms}}, {{firstName}}! ({{name}}) protocolo {{protocol}} em {{date}} às {{hour}} {{unknown}}', ticketId: ticket.id });
    const future = await s.schedule({ sendAt: new Date(NOW.getTime() + 60_000).toISOString() });
    const result = await runSchedulesOnce(t.deps, opts());
    expect(result).toMatchObject({ claimed: 1, sent: 1, failed: 0 });
    expect((await s.outbox()).map((m) => m.body)).toEqual([
      `Boa tarde, Maria! (Maria Clara Souza) protocolo 20300315120405${ticket.id} em 15/03/2030 às 12:04:05 {{unknown}}`,
    ]);
    expect(await s.read(due.id)).toMatchObject({ status: 'ENVIADA', sentAt: NOW.toISOString(), error: null, version: due.version + 1 });
    expect(await s.read(future.id)).toMatchObject({ status: 'PENDENTE', sentAt: null, claimedAt: null });
    // Later passes find nothing more to send.
    expect(await runSchedulesOnce(t.deps, opts())).toMatchObject({ claimed: 0, sent: 0 });
    expect((await s.outbox())).toHaveLength(1);
  });

  it.each([
    ['en', ['Good morning', 'Good afternoon', 'Good evening', 'Good evening']],
    ['es', ['Buenos días', 'Buenas tardes', 'Buenas noches', 'Buenas noches']],
    ['pt', ['Bom dia', 'Boa tarde', 'Boa noite', 'Boa noite']],
  ])("greets by the hour in the author's language (%s)", async (lang, greetings) => {
    const s = await setup();
    expect((await t.request('POST', `/users/set-language/${lang}`, { token: s.userSession.token })).status).toBe(200);
    // 08:30, 12:00, 18:00 and 04:59 in São Paulo (UTC-3).
    const moments = ['2030-03-15T11:30:00.000Z', '2030-03-15T15:00:00.000Z', '2030-03-15T21:00:00.000Z', '2030-03-16T07:59:00.000Z'];
    const sent: string[] = [];
    for (const at of moments) {
      await s.schedule({ body: `{{ms}}, {{firstName}}!`, userId: s.user.id, sendAt: at });
      await runSchedulesOnce(t.deps, { now: () => new Date(at), timeZone: 'America/Sao_Paulo' });
      // Each one read once it left: schedules of a contact may go out through different tickets,
      // whose sends the outbox does not order among themselves.
      const out = await s.outbox();
      expect(out).toHaveLength(sent.length + 1);
      const earlier = [...sent];
      sent.push(out.map((m) => m.body).find((b) => {
        const i = earlier.indexOf(b);
        if (i === -1) return true;
        earlier.splice(i, 1);
        return false;
      }) ?? '');
    }
    expect(sent).toEqual(greetings.map((g) => `${g}, Maria!`));
  });

  it('greets in English when the author chose no language or is gone', async () => {
    const s = await setup();
    await s.schedule({ body: '{{ms}} ({{name}})' });
    await s.schedule({ body: '{{ms}}!', userId: null });
    await runSchedulesOnce(t.deps, opts());
    expect((await s.outbox()).map((m) => m.body).sort()).toEqual(['Good afternoon (Maria Clara Souza)', 'Good afternoon!']);
  });

  it('two passes racing send every due schedule exactly once', async () => {
    const s = await setup();
    const rows = [];
    for (let i = 0; i < 12; i++) rows.push(await s.schedule({ body: `Race message ${i}`, sendAt: ago(i * 1000) }));
    const results = await Promise.all([
      runSchedulesOnce(t.deps, opts({ claimer: 'instance-a', batchSize: 3 })),
      runSchedulesOnce(t.deps, opts({ claimer: 'instance-b', batchSize: 3 })),
      runSchedulesOnce(t.deps, opts({ claimer: 'instance-c', batchSize: 5 })),
    ]);
    expect(results.reduce((n, r) => n + r.sent, 0)).toBe(12);
    const bodies = (await s.outbox()).map((m) => m.body).sort();
    expect(bodies).toEqual(rows.map((r) => r.body).sort());
    for (const r of rows) expect((await s.read(r.id)).status).toBe('ENVIADA');
  });

  it('concurrent claims never hand one row to two claimers', async () => {
    const s = await setup();
    for (let i = 0; i < 20; i++) await s.schedule({ body: `Claim ${i}` });
    const claims = await Promise.all(['a', 'b', 'c', 'd'].map((c) => claimDueSchedules(t.deps, { now: NOW, claimer: `claim-${c}-${seq}`, limit: 20 })));
    const ids = claims.flat().map((r) => r.id);
    expect(ids.length).toBeGreaterThanOrEqual(20);
    expect(new Set(ids).size).toBe(ids.length);
    // Claimed rows are not sent by a later pass (they belong to their claimer).
    expect(await runSchedulesOnce(t.deps, opts())).toMatchObject({ claimed: 0 });
  });

  it('without a default connection the schedule fails with ERR_NO_DEF_WAPP_FOUND', async () => {
    const s = await setup(false);
    const due = await s.schedule();
    expect(await runSchedulesOnce(t.deps, opts())).toMatchObject({ claimed: 1, sent: 0, failed: 1 });
    expect(await s.read(due.id)).toMatchObject({ status: 'ERRO', error: 'ERR_NO_DEF_WAPP_FOUND', sentAt: null });
    // A failed schedule is not retried by the job; editing it (PUT) is the retry.
    expect(await runSchedulesOnce(t.deps, opts())).toMatchObject({ claimed: 0 });
    const put = await t.request('PUT', `/schedules/${due.id}`, { token: s.adminSession.token, body: { body: 'Second try' } });
    expect(put.body).toMatchObject({ status: 'PENDENTE', error: null });
    expect(await runSchedulesOnce(t.deps, opts())).toMatchObject({ claimed: 1, failed: 1 });
  });

  it('a disconnected default connection keeps the message queued; it leaves when the connection is up', async () => {
    const s = await setup(false);
    const tt = tenant(t.db, s.company.id);
    const down = await tt.insertInto('whatsapps', { name: 'Down', provider: 'simulator', isDefault: 1 }).returningAll().executeTakeFirstOrThrow();
    const due = await s.schedule({ body: 'Waiting for the phone' });
    expect(await runSchedulesOnce(t.deps, opts())).toMatchObject({ claimed: 1, sent: 1, failed: 0 });
    expect(await s.read(due.id)).toMatchObject({ status: 'ENVIADA', error: null });
    const message = () => tt.selectFrom('messages').select(['messages.body', 'messages.sendStatus']).where('messages.contactId', '=', s.contact.id).execute();
    await t.deps.outbox.idle();
    expect(await message()).toEqual([{ body: 'Waiting for the phone', sendStatus: 'queued' }]);
    await t.deps.sessions.start(s.company.id, down.id);
    await t.deps.sessions.simulator.scan(down.id);
    await waitFor(message, (rows) => rows[0]?.sendStatus === 'sent');
    expect(t.deps.sessions.simulator.outbox(down.id, s.contact.number).map((m) => m.body)).toEqual(['Waiting for the phone']);
  });

  it("a message the network refuses for good turns the schedule ERRO with the failure's code", async () => {
    const s = await setup();
    await t.request('POST', '/simulator/numbers', { token: s.adminSession.token, body: { connectionId: s.connectionId, number: s.contact.number, exists: false } });
    const due = await s.schedule({ body: 'To nobody' });
    expect(await runSchedulesOnce(t.deps, opts())).toMatchObject({ claimed: 1, sent: 1 });
    await t.deps.outbox.idle();
    expect(await s.read(due.id)).toMatchObject({ status: 'ERRO', error: 'ERR_WAPP_INVALID_CONTACT', sentAt: null });
    expect(await s.outbox()).toEqual([]);
  });

  it('a stale claim (its process died before its one write) is released and sent once; a live claim is left alone', async () => {
    const s = await setup();
    const due = await s.schedule({ body: 'Claimed by a dead instance' });
    await tenant(t.db, s.company.id).updateTable('schedules').set({ claimedAt: ago(10 * 60_000), claimedBy: 'dead-instance' }).where('id', '=', due.id).execute();
    const fresh = await s.schedule({ body: 'Claimed a moment ago' });
    await tenant(t.db, s.company.id).updateTable('schedules').set({ claimedAt: ago(30_000), claimedBy: 'live-instance' }).where('id', '=', fresh.id).execute();
    const result = await runSchedulesOnce(t.deps, opts());
    expect(result).toMatchObject({ released: 1, claimed: 1, sent: 1 });
    expect(await s.read(due.id)).toMatchObject({ status: 'ENVIADA', error: null });
    expect(await s.read(fresh.id)).toMatchObject({ status: 'PENDENTE', claimedBy: 'live-instance' });
    expect((await s.outbox()).map((m) => m.body)).toEqual(['Claimed by a dead instance']);
  });

  it("goes through the contact's active ticket on that connection, so the conversation shows it", async () => {
    const s = await setup();
    const tt = tenant(t.db, s.company.id);
    const ticket = await tt.insertInto('tickets', { uuid: `job-active-${++seq}`, contactId: s.contact.id, whatsappId: s.connectionId!, status: 'open', userId: s.admin.id }).returningAll().executeTakeFirstOrThrow();
    const due = await s.schedule({ body: 'Seu protocolo: {{protocol}}' });
    await runSchedulesOnce(t.deps, opts());
    const sent = (await s.outbox());
    expect(sent.map((m) => m.body)).toEqual([`Seu protocolo: 20300315120405${ticket.id}`]);
    const messages = await tt.selectFrom('messages').selectAll().where('ticketId', '=', ticket.id).execute();
    expect(messages).toMatchObject([{ body: `Seu protocolo: 20300315120405${ticket.id}`, fromMe: 1, wid: sent[0]!.id, ack: 1 }]);
    expect((await tt.selectFrom('tickets').select('lastMessage').where('id', '=', ticket.id).executeTakeFirstOrThrow()).lastMessage).toContain('Seu protocolo');
    expect((await s.read(due.id)).status).toBe('ENVIADA');
  });

  it('a slow network holds neither the job nor a racing pass: the schedule is queued once and sent once', async () => {
    const s = await setup(false);
    const conn = await tenant(t.db, s.company.id).insertInto('whatsapps', { name: 'Slow', provider: 'simulator', isDefault: 1 }).returningAll().executeTakeFirstOrThrow();
    const sent: string[] = [];
    // A channel double whose network takes 1 s per message.
    t.channels.set(conn.id, {
      status: () => 'CONNECTED',
      send: async (req: { content: { kind: string; body?: string } }) => {
        await new Promise((r) => setTimeout(r, 1000));
        sent.push(req.content.body ?? '');
        return { id: `slow-${sent.length}`, timestamp: new Date().toISOString() };
      },
    } as unknown as Channel);
    const due = await s.schedule({ body: 'Slow but once', sendAt: new Date(Date.now() - 1000).toISOString() });
    const fast = { timeZone: 'UTC', staleAfterMs: 400, heartbeatMs: 25 };
    const first = runSchedulesOnce(t.deps, { ...fast, claimer: 'slow-a' });
    await new Promise((r) => setTimeout(r, 600));
    const second = await runSchedulesOnce(t.deps, { ...fast, claimer: 'slow-b' });
    expect(second).toMatchObject({ claimed: 0, released: 0 });
    expect(await first).toMatchObject({ claimed: 1, sent: 1 });
    await t.deps.outbox.idle();
    expect(sent).toEqual(['Slow but once']);
    expect((await s.read(due.id)).status).toBe('ENVIADA');
  });

  it('sends the image with the rendered body as caption', async () => {
    const s = await setup();
    const rel = `${s.company.id}/schedules/test-${seq}.png`;
    mkdirSync(path.join(t.deps.config.mediaDir, String(s.company.id), 'schedules'), { recursive: true });
    writeFileSync(path.join(t.deps.config.mediaDir, rel), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]));
    const due = await s.schedule({ body: 'Veja, {{firstName}}', mediaPath: rel, mediaName: 'promo.png' });
    const missing = await s.schedule({ body: 'Lost image', mediaPath: `${s.company.id}/schedules/gone.png`, mediaName: 'gone.png' });
    await runSchedulesOnce(t.deps, opts());
    expect((await s.outbox())).toMatchObject([{ kind: 'media', mediaType: 'image', body: 'Veja, Maria', fileName: 'promo.png', mimeType: 'image/png', size: 11 }]);
    expect((await s.read(due.id)).status).toBe('ENVIADA');
    expect(await s.read(missing.id)).toMatchObject({ status: 'ERRO', error: 'ERR_SENDING_WAPP_MSG' });
  });

  it("one company's schedules go through its own default connection only", async () => {
    const a = await setup();
    const b = await setup();
    await a.schedule({ body: 'For company A' });
    await b.schedule({ body: 'For company B' });
    await runSchedulesOnce(t.deps, opts());
    expect((await a.outbox()).map((m) => m.body)).toEqual(['For company A']);
    expect((await b.outbox()).map((m) => m.body)).toEqual(['For company B']);
  });
});
