// DELETE /whatsapp/{id} of a busy connection (routes.ts): marked and its session ended, its WhatsApp
// keys wiped a slice per write, its waiting messages failed and its rows let go of it, then the
// row. Every row that named the connection goes or lets go of it, the foreign keys of the schema
// being the list; no session starts on it while its keys go; a delete cut short finishes when asked
// again.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { pullValue } from '../../../test/read-model.ts';
import { noneNaming, rowsNaming } from '../../../test/schema-facts.ts';
import { seedTenant } from '../../../test/seed.ts';
import { expectSearches, sliceBesideAnotherWrite, slicePlans } from '../../../test/slices.ts';
import { inSlices } from '../../db/slices.ts';
import { tenant } from '../../db/tenant.ts';
import { write } from '../../db/write.ts';
import { bumpVersion } from '../../sync/version.ts';
import { beginConnectionDelete, wipeConnectionKeysSlice } from './service.ts';

describe.each(DIALECTS)('deleting a connection on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true, simulatorTiming: { qrIntervalMs: 60_000, qrMaxAttempts: 3, reconnectDelayMs: 150 } });
  });
  afterAll(async () => t.close());

  /** A simulator connection with `keys` stored keys and a ticket, contact, message, tracking, queue link and queued outbox row on it. */
  async function busyConnection(companyId: number, token: string, keys: number) {
    const db = tenant(t.db, companyId);
    const created = await t.request('POST', '/whatsapp', { token, body: { name: `Line ${randomUUID().slice(0, 8)}`, provider: 'simulator' } });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    const queue = await db.insertInto('queues', { name: `Queue ${id}`, color: `#${String(id).padStart(6, '0')}` }).returning('queues.id').executeTakeFirstOrThrow();
    await db.insertInto('whatsappQueues', { whatsappId: id, queueId: queue.id }).execute();
    const contact = await db.insertInto('contacts', { name: `C${id}`, number: `55119${String(id).padStart(8, '0')}`, whatsappId: id }).returning('contacts.id').executeTakeFirstOrThrow();
    const ticket = await db.insertInto('tickets', { uuid: randomUUID(), contactId: contact.id, whatsappId: id, status: 'open' }).returning('tickets.id').executeTakeFirstOrThrow();
    const message = await db
      .insertInto('messages', { wid: `W${id}`, ticketId: ticket.id, contactId: contact.id, whatsappId: id, body: 'oi', fromMe: 1, ack: 0, read: 1, sendStatus: 'queued' })
      .returning('messages.id')
      .executeTakeFirstOrThrow();
    await db.insertInto('outbox', { messageId: message.id, ticketId: ticket.id, whatsappId: id }).execute();
    await db.insertInto('ticketTrackings', { ticketId: ticket.id, whatsappId: id }).execute();
    await db.insertInto('baileysCreds', { whatsappId: id, creds: '{"simulator":true}' }).onConflict((oc) => oc.column('whatsappId').doNothing()).execute();
    if (keys > 0) {
      await db.insertInto('baileysKeys', Array.from({ length: keys }, (_, i) => ({ whatsappId: id, type: i % 2 ? 'session' : 'pre-key', keyId: `k${i}`, value: `v${i}` }))).execute();
    }
    return id;
  }

  /** For each foreign key of the schema to whatsapps: its rows that name `id`. */
  const naming = (id: number) => rowsNaming(t, { whatsapps: [id] });
  const none = noneNaming;
  const keysOf = async (id: number) => (await t.db.selectFrom('baileysKeys').select('keyId').where('whatsappId', '=', id).execute()).length;

  it("wipes a deleted connection's keys a slice at a time, other writes in between; another company's id and a live connection's keys are left alone", async () => {
    const { company, adminSession } = await seedTenant(t);
    const other = await seedTenant(t);
    const token = adminSession.token;
    const busy = await busyConnection(company.id, token, 7);
    const kept = await busyConnection(company.id, token, 3);
    const before = await naming(busy);
    // Each kind of row is there, so that the counts below say something.
    expect(before).toMatchObject({
      'baileys_keys.whatsapp_id': 7, 'baileys_creds.whatsapp_id': 1, 'whatsapp_queues.whatsapp_id': 1, 'contacts.whatsapp_id': 1, 'tickets.whatsapp_id': 1,
      'messages.whatsapp_id': 1, 'ticket_trackings.whatsapp_id': 1, 'outbox.whatsapp_id': 1,
    });

    // A connection not being deleted keeps its keys: they are its pairing.
    expect(await write(t.deps, (tx) => wipeConnectionKeysSlice(tx, company.id, busy, 100))).toBe(0);
    await write(t.deps, (tx) => beginConnectionDelete(tx, company.id, busy));
    const marked = (await t.request('GET', `/whatsapp/${busy}`, { token })).body;
    expect(marked).toMatchObject({ status: 'DISCONNECTED', qrcode: '' });
    // Asked for by another company, the connection's id matches none of its keys.
    await inSlices(t.deps, (tx, limit) => wipeConnectionKeysSlice(tx, other.company.id, busy, limit), 2);
    expect(await keysOf(busy)).toBe(7);

    await sliceBesideAnotherWrite(t, other.company.id, (tx, limit) => wipeConnectionKeysSlice(tx, company.id, busy, limit), async () => (await keysOf(busy)) > 0);
    expect(await keysOf(busy)).toBe(0);
    expect(await keysOf(kept)).toBe(3);

    expect((await t.request('DELETE', `/whatsapp/${busy}`, { token })).status).toBe(200);
    const gone = await naming(busy);
    expect(gone).toEqual(none(gone));
    expect(await naming(kept)).toEqual({ ...before, 'baileys_keys.whatsapp_id': 3 });
    // What waited to leave through it failed, seen by sync.
    const failed = await tenant(t.db, company.id).selectFrom('messages').select(['messages.sendStatus', 'messages.sendError', 'messages.version']).where('messages.wid', '=', `W${busy}`).executeTakeFirstOrThrow();
    expect(failed).toMatchObject({ sendStatus: 'failed', sendError: 'ERR_NO_WAPP_FOUND' });
    expect(failed.version).toBeGreaterThan(1);

    // A whole run of the slice, on another connection: each statement searches an index (SQLite's plans).
    await write(t.deps, (tx) => beginConnectionDelete(tx, company.id, kept));
    const plans = await slicePlans(t, (tx, limit) => wipeConnectionKeysSlice(tx, company.id, kept, limit), 100);
    if (dialect === 'sqlite') expectSearches(plans);
    expect(await keysOf(kept)).toBe(0);
  });

  it('no session starts on a connection being deleted; a delete cut short finishes when asked again', async () => {
    const { company, adminSession } = await seedTenant(t);
    const token = adminSession.token;
    const id = await busyConnection(company.id, token, 0);
    // Paired on the simulator: a live session holding its credentials.
    expect((await t.request('POST', `/whatsappsession/${id}`, { token })).body.status).toBe('qrcode');
    expect((await t.request('POST', `/simulator/connections/${id}/scan`, { token })).status).toBe(200);
    expect((await t.request('GET', `/whatsapp/${id}`, { token })).body).toMatchObject({ status: 'CONNECTED', deleting: false });
    await tenant(t.db, company.id).insertInto('baileysKeys', Array.from({ length: 5 }, (_, i) => ({ whatsappId: id, type: 'session', keyId: `s${i}`, value: 'v' }))).execute();

    // Cut short, as a process that died there leaves it: marked, its session ended keeping its
    // keys (not wiped in one write), one slice of 2 keys wiped.
    await write(t.deps, (tx) => beginConnectionDelete(tx, company.id, id));
    await t.deps.sessions.forget(id, { keepStore: true });
    expect(t.deps.sessions.getChannel(id)).toBeUndefined();
    expect(await keysOf(id)).toBe(5);
    expect(await write(t.deps, (tx) => wipeConnectionKeysSlice(tx, company.id, id, 2))).toBe(2);
    expect(await keysOf(id)).toBe(3);
    // It says so, over REST and in the synced view (one mapper): the web and the CLI show it.
    expect((await t.request('GET', `/whatsapp/${id}`, { token })).body).toMatchObject({ status: 'DISCONNECTED', deleting: true });
    expect(await pullValue(t, token, `connection/${id}`)).toMatchObject({ status: 'DISCONNECTED', deleting: true });

    // Nothing pairs over the keys left: every session command is refused, and boot skips it even if
    // its status said live.
    for (const [method, url, body] of [['POST', `/whatsappsession/${id}`], ['PUT', `/whatsappsession/${id}`], ['DELETE', `/whatsappsession/${id}`], ['POST', `/whatsappsession/${id}/pairing-code`, { number: '5511988887777' }]] as const) {
      const res = await t.request(method, url, { token, body });
      expect(res.status, `${method} ${url}`).toBe(400);
      expect(res.body).toMatchObject({ error: 'ERR_WAPP_NOT_INITIALIZED', message: expect.stringMatching(/being deleted/) });
    }
    await tenant(t.db, company.id).updateTable('whatsapps').set({ status: 'CONNECTED', ...bumpVersion() }).where('whatsapps.id', '=', id).execute();
    await t.deps.sessions.startAll();
    expect(t.deps.sessions.getChannel(id)).toBeUndefined();
    expect(await keysOf(id)).toBe(3);
    expect(await t.db.selectFrom('baileysCreds').select('whatsappId').where('whatsappId', '=', id).execute()).toHaveLength(1);

    expect((await t.request('DELETE', `/whatsapp/${id}`, { token })).status).toBe(200);
    const gone = await naming(id);
    expect(gone).toEqual(none(gone));
    expect((await t.request('GET', `/whatsapp/${id}`, { token })).status).toBe(404);
    expect((await t.request('DELETE', `/whatsapp/${id}`, { token })).status).toBe(404);
  });
});
