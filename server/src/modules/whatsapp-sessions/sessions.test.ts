import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedTenant } from '../../../test/seed.ts';
import { createChannelSessions } from '../../channels/index.ts';
import { waitFor } from '../../channels/testing.ts';
import type { InboundMessage } from '../../channels/types.ts';
import { write } from '../../db/write.ts';

describe.each(DIALECTS)('connection sessions and the simulator on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    // QR refreshes are slow here so a busy machine never races them; the timeout test has its own app.
    t = await createTestApp(dialect, { simulator: true, simulatorTiming: { qrIntervalMs: 60_000, qrMaxAttempts: 3, reconnectDelayMs: 150 } });
  });
  afterAll(async () => t.close());

  async function newConnection(token: string, body: Record<string, unknown> = {}) {
    const res = await t.request('POST', '/whatsapp', { token, body: { name: 'Sales line', provider: 'simulator', ...body } });
    expect(res.status).toBe(201);
    return res.body as { id: number };
  }
  const getConn = async (token: string, id: number) => (await t.request('GET', `/whatsapp/${id}`, { token })).body;

  it('pairs by QR end to end: start → qrcode with a QR → scan → CONNECTED with a number', async () => {
    const { adminSession } = await seedTenant(t);
    const { id } = await newConnection(adminSession.token);
    expect((await getConn(adminSession.token, id)).status).toBe('DISCONNECTED');

    const started = await t.request('POST', `/whatsappsession/${id}`, { token: adminSession.token });
    expect(started.status).toBe(200);
    expect(started.body.status).toBe('qrcode');
    expect(started.body.qrcode).toMatch(/^2@[^,]+,[^,]+,[^,]+,[^,]+$/);
    const before = await getConn(adminSession.token, id);
    expect(before).toMatchObject({ status: 'qrcode', qrcode: started.body.qrcode });

    const scan = await t.request('POST', `/simulator/connections/${id}/scan`, { token: adminSession.token });
    expect(scan.status).toBe(200);
    const after = await getConn(adminSession.token, id);
    expect(after).toMatchObject({ status: 'CONNECTED', qrcode: '', retries: 0 });
    expect(after.number).toMatch(/^55119\d{8}$/);
    expect(after.version).toBeGreaterThan(before.version);
    // The pairing is stored in the database, never in files.
    const creds = await t.db.selectFrom('baileysCreds').select('creds').where('whatsappId', '=', id).executeTakeFirst();
    expect(JSON.parse(creds!.creds)).toMatchObject({ simulator: true, number: after.number });
  });

  it('refreshes the QR and ends in TIMEOUT when nobody scans', async () => {
    const fast = await createTestApp(dialect, { simulator: true, simulatorTiming: { qrIntervalMs: 150, qrMaxAttempts: 3, reconnectDelayMs: 150 } });
    const main = t;
    t = fast;
    try {
      const { adminSession } = await seedTenant(t);
      const { id } = await newConnection(adminSession.token);
      const first = (await t.request('POST', `/whatsappsession/${id}`, { token: adminSession.token })).body;
      const refreshed = await waitFor(() => getConn(adminSession.token, id), (c) => c.status === 'qrcode' && c.qrcode !== first.qrcode);
      expect(refreshed.retries).toBeGreaterThanOrEqual(1);
      const timedOut = await waitFor(() => getConn(adminSession.token, id), (c) => c.status === 'TIMEOUT');
      expect(timedOut.qrcode).toBe('');
      const late = await t.request('POST', `/simulator/connections/${id}/scan`, { token: adminSession.token });
      expect(late.status).toBe(400);
      expect(late.body.error).toBe('ERR_WAPP_NOT_INITIALIZED');
      // Starting again shows a fresh QR.
      expect((await t.request('POST', `/whatsappsession/${id}`, { token: adminSession.token })).body.status).toBe('qrcode');
    } finally {
      t = main;
      await fast.close();
    }
  });

  async function pairedConnection() {
    const tenant = await seedTenant(t);
    const { id } = await newConnection(tenant.adminSession.token);
    await t.request('POST', `/whatsappsession/${id}`, { token: tenant.adminSession.token });
    await t.request('POST', `/simulator/connections/${id}/scan`, { token: tenant.adminSession.token, body: { number: '5511900001111' } });
    return { ...tenant, id };
  }

  it('drop(network) reconnects through OPENING; drop(replaced) disconnects keeping the pairing; drop(loggedOut) wipes it', async () => {
    const { adminSession, id } = await pairedConnection();
    const token = adminSession.token;
    const drop = await t.request('POST', `/simulator/connections/${id}/drop`, { token, body: { cause: 'network' } });
    expect(drop.status).toBe(200);
    expect(drop.body.status).toBe('OPENING');
    await waitFor(() => getConn(token, id), (c) => c.status === 'CONNECTED');

    await t.request('POST', `/simulator/connections/${id}/drop`, { token, body: { cause: 'replaced' } });
    expect((await getConn(token, id)).status).toBe('DISCONNECTED');
    // Try again: the stored pairing reconnects without a QR.
    expect((await t.request('POST', `/whatsappsession/${id}`, { token })).body.status).toBe('CONNECTED');

    await t.request('POST', `/simulator/connections/${id}/drop`, { token, body: { cause: 'loggedOut' } });
    expect((await getConn(token, id)).status).toBe('DISCONNECTED');
    expect(await t.db.selectFrom('baileysCreds').select('whatsappId').where('whatsappId', '=', id).executeTakeFirst()).toBeUndefined();
    expect((await t.request('POST', `/whatsappsession/${id}`, { token })).body.status).toBe('qrcode');
  });

  it('PUT /whatsappsession asks a new QR; DELETE logs out', async () => {
    const { adminSession, id } = await pairedConnection();
    const renewed = await t.request('PUT', `/whatsappsession/${id}`, { token: adminSession.token });
    expect(renewed.body).toMatchObject({ status: 'qrcode', number: null });
    await t.request('POST', `/simulator/connections/${id}/scan`, { token: adminSession.token });
    const out = await t.request('DELETE', `/whatsappsession/${id}`, { token: adminSession.token });
    expect(out.body).toMatchObject({ status: 'DISCONNECTED', qrcode: '' });
    expect(t.deps.sessions.getChannel(id)).toBeUndefined();
    expect(await t.db.selectFrom('baileysCreds').select('whatsappId').where('whatsappId', '=', id).executeTakeFirst()).toBeUndefined();
  });

  it('a paired connection reconnects at boot without a new QR', async () => {
    const { adminSession, id } = await pairedConnection();
    await t.deps.sessions.stopAll();
    // stopAll keeps the status, so a fresh manager (a restarted server) brings it back.
    const rebooted = createChannelSessions({ db: t.db, log: t.log, config: t.deps.config, realWhatsApp: false, write: (fn) => write(t.deps, fn) });
    await rebooted.startAll();
    expect(rebooted.getChannel(id)?.status()).toBe('CONNECTED');
    expect((await getConn(adminSession.token, id)).status).toBe('CONNECTED');
    await rebooted.stopAll();
  });

  it('delivers inbound messages of every kind to the pipeline hook, with media bytes', async () => {
    const { adminSession, id } = await pairedConnection();
    const token = adminSession.token;
    const seen: { connectionId: number; companyId: number; message: InboundMessage }[] = [];
    const off = t.deps.sessions.onInbound((e) => void seen.push(e));
    try {
        const text = await t.request('POST', '/simulator/messages', { token, body: { connectionId: id, from: '5511988887777', name: 'Ana', body: 'Oi' } });
        expect(text.status).toBe(200);
        expect(text.body.id).toMatch(/^3EB0/);
        for (const mediaType of ['image', 'audio', 'video', 'document', 'location', 'vcard', 'call_log']) {
          const res = await t.request('POST', '/simulator/messages', { token, body: { connectionId: id, from: '5511988887777', mediaType, body: mediaType === 'location' ? '-22.9,-43.2,Rio' : undefined } });
          expect(res.status).toBe(200);
        }
        const again = await t.request('POST', '/simulator/messages', { token, body: { connectionId: id, from: '5511988887777', body: 'Oi', id: text.body.id, quotedId: 'ABC' } });
        expect(again.body.id).toBe(text.body.id);
        // Delivered before the call answered: the pipeline has run when the control returns.
        expect(seen).toHaveLength(9);
        const [first] = seen;
        expect(first).toMatchObject({ connectionId: id, message: { body: 'Oi', fromMe: false, from: { number: '5511988887777', jid: '5511988887777@s.whatsapp.net', name: 'Ana' } } });
        expect(first!.message.from.lid).toMatch(/@lid$/);
        const byType = Object.fromEntries(seen.map((e) => [e.message.mediaType ?? 'text', e.message]));
        expect(byType.image!.media!.data.subarray(1, 4).toString()).toBe('PNG');
        expect(byType.audio!.media!.data.subarray(0, 4).toString()).toBe('OggS');
        expect(byType.video!.media!.data.subarray(4, 8).toString()).toBe('ftyp');
        expect(byType.document!.media!.data.subarray(0, 5).toString()).toBe('%PDF-');
        expect(byType.location!.location).toEqual({ latitude: -22.9, longitude: -43.2, description: 'Rio' });
        expect(byType.vcard!.vcard).toContain('BEGIN:VCARD');
        expect(byType.call_log!.body).toMatch(/perdida/);
        expect(seen[8]!.message.quotedId).toBe('ABC');
    } finally {
      off();
    }
  });

  it('records sends in the outbox; acks only move forward; absent numbers are refused', async () => {
    const { adminSession, id } = await pairedConnection();
    const token = adminSession.token;
    const channel = t.deps.sessions.getChannel(id)!;
    const acks: number[] = [];
    const off = t.deps.sessions.onAck((e) => void acks.push(e.ack));
    const sent = await channel.send({ to: { number: '5511977776666' }, content: { kind: 'text', body: 'Olá!' }, quotedId: 'Q1' });
    await channel.send({ to: { number: '5511955554444' }, content: { kind: 'location', latitude: 1, longitude: 2 } });
    const outbox = await t.request('GET', `/simulator/outbox?connectionId=${id}&to=5511977776666`, { token });
    expect(outbox.body).toEqual([expect.objectContaining({ id: sent.id, to: '5511977776666', body: 'Olá!', ack: 1, quotedId: 'Q1' })]);

    expect((await t.request('POST', '/simulator/acks', { token, body: { connectionId: id, messageId: sent.id, ack: 3 } })).body.ack).toBe(3);
    expect((await t.request('POST', '/simulator/acks', { token, body: { connectionId: id, messageId: sent.id, ack: 2 } })).body.ack).toBe(3);
    expect(acks).toEqual([3]);
    off();
    expect((await t.request('POST', '/simulator/acks', { token, body: { connectionId: id, messageId: 'nope', ack: 3 } })).status).toBe(404);

    expect((await t.request('POST', '/simulator/numbers', { token, body: { connectionId: id, number: '5511900000000', exists: false } })).status).toBe(200);
    expect(await channel.checkNumbers(['5511900000000', '5511977776666'])).toEqual([
      { number: '5511900000000', exists: false },
      { number: '5511977776666', exists: true, jid: '5511977776666@s.whatsapp.net' },
    ]);
    await expect(channel.send({ to: { number: '5511900000000' }, content: { kind: 'text', body: 'x' } })).rejects.toMatchObject({ code: 'ERR_WAPP_INVALID_CONTACT' });
  });

  it('answers the controls only for an admin of the company or the super-admin', async () => {
    const { id } = await pairedConnection();
    const other = await seedTenant(t);
    const foreign = await t.request('POST', '/simulator/messages', { token: other.adminSession.token, body: { connectionId: id, from: '5511911112222', body: 'x' } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe('ERR_NO_WAPP_FOUND');
    expect((await t.request('POST', `/simulator/connections/${id}/scan`, { token: other.adminSession.token })).body.error).toBe('ERR_NO_WAPP_FOUND');
    expect((await t.request('GET', `/simulator/outbox?connectionId=${id}`, { token: other.adminSession.token })).status).toBe(404);
    expect((await t.request('POST', `/whatsappsession/${id}`, { token: other.adminSession.token })).body.error).toBe('ERR_NO_WAPP_FOUND');
    const attendant = await t.request('POST', '/simulator/messages', { token: other.userSession.token, body: { connectionId: id, from: '5511911112222' } });
    expect(attendant.status).toBe(403);
    expect((await t.request('POST', `/whatsappsession/${id}`, { token: other.userSession.token })).status).toBe(403);
  });
});

describe.each(DIALECTS)('simulator controls off on %s', (dialect) => {
  it('are not routes without SIMULATOR=1', async () => {
    const t = await createTestApp(dialect, { simulator: false });
    try {
        const { adminSession } = await seedTenant(t);
        const res = await t.request('GET', '/simulator/outbox?connectionId=1', { token: adminSession.token });
        expect(res.status).toBe(404);
        expect(res.body.error).toBe('ERR_ROUTE_NOT_FOUND');
    } finally {
      await t.close();
    }
  });
});
