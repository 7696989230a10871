// Smoke test of the Baileys adapter against a faked socket module: makeWASocket is injected, and
// the fake emits connection.update / creds.update / messages.upsert / messages.update / call
// events the way Baileys does, so the adapter's mapping of events, statuses and sends is proven
// without touching WhatsApp.
import { EventEmitter } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedTenant } from '../../../test/seed.ts';
import { tenant } from '../../db/tenant.ts';
import { write } from '../../db/write.ts';
import { createSessionManager, type InboundEvent, type SessionManager } from '../session-manager.ts';
import { createSimulatorNetwork } from '../simulator/network.ts';
import { waitFor } from '../testing.ts';
import type { MessageChange } from '../types.ts';
import { createBaileysFactory, WA_VERSION, type MakeSocket } from './adapter.ts';

type FakeSocket = ReturnType<typeof fakeSocket>;
const boom = (statusCode: number, message = 'closed') => Object.assign(new Error(message), { output: { statusCode } });

function fakeSocket(config: Record<string, any>) { // eslint-disable-line @typescript-eslint/no-explicit-any
  const emitter = new EventEmitter();
  const socket = {
    config,
    sent: [] as { jid: string; content: any; opts: any }[], // eslint-disable-line @typescript-eslint/no-explicit-any
    ended: false,
    loggedOut: false,
    user: undefined as { id: string } | undefined,
    ev: { on: (e: string, l: (...a: unknown[]) => void) => emitter.on(e, l), off: (e: string, l: (...a: unknown[]) => void) => emitter.off(e, l) },
    emit: (event: string, data: unknown) => emitter.emit(event, data),
    async sendMessage(jid: string, content: unknown, opts?: unknown) {
      socket.sent.push({ jid, content, opts });
      return { key: { id: `SENT${socket.sent.length}`, remoteJid: jid, fromMe: true } };
    },
    onWhatsApp: async (...jids: string[]) => jids.map((jid) => ({ jid, exists: !jid.startsWith('5500') })),
    profilePictureUrl: async () => 'https://pps.whatsapp.net/x.jpg',
    readMessages: async () => undefined,
    logout: async () => void (socket.loggedOut = true),
    pairingFor: [] as string[],
    requestPairingCode: async (phone: string) => (socket.pairingFor.push(phone), 'ABCD1234'),
    end: () => void (socket.ended = true),
  };
  return socket;
}

describe.each(DIALECTS)('Baileys adapter (faked socket) on %s', (dialect) => {
  let t: TestApp;
  let manager: SessionManager;
  const sockets: FakeSocket[] = [];
  const inbound: InboundEvent[] = [];
  const acks: { id: string; ack: number }[] = [];
  const changes: MessageChange[] = [];
  const png = Buffer.from('89504e470d0a1a0a', 'hex');
  let pairedId = 0;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const makeSocket = ((config: Record<string, unknown>) => {
      const s = fakeSocket(config);
      sockets.push(s);
      return s;
    }) as unknown as MakeSocket;
    manager = createSessionManager({
      db: t.db,
      log: t.log,
      write: (fn) => write(t.deps, fn),
      simulator: createSimulatorNetwork(),
      factories: { beta: createBaileysFactory({ log: t.log, makeSocket, download: async () => png, policy: { backoffBaseMs: 5, maxQrAttempts: 2 } }) },
    });
    manager.onInbound((e) => void inbound.push(e));
    manager.onAck((e) => void acks.push(e));
    manager.onChange((e) => void changes.push(e.change));
  });
  afterAll(async () => {
    await manager.stopAll();
    await t.close();
  });

  const newConnection = async () => {
    const { company } = await seedTenant(t);
    const row = await tenant(t.db, company.id).insertInto('whatsapps', { name: 'Real line', provider: 'beta' }).returning(['id', 'companyId']).executeTakeFirstOrThrow();
    return row;
  };
  const rowOf = (id: number) => t.db.selectFrom('whatsapps').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const last = () => sockets[sockets.length - 1]!;

  it('pairs: QR → PAIRING → 515 restart at once → CONNECTED, with creds and keys in the database', async () => {
    const { id, companyId } = await newConnection();
    pairedId = id;
    await manager.start(companyId, id);
    const first = last();
    expect(first.config.version).toEqual(WA_VERSION);
    first.emit('connection.update', { qr: '2@ref,noise,identity,adv' });
    await manager.flush(id);
    expect(await rowOf(id)).toMatchObject({ status: 'qrcode', qrcode: '2@ref,noise,identity,adv', retries: 0 });

    // Baileys' auth state: creds saved on creds.update; keys round-trip with their Buffers.
    first.config.auth.creds.me = { id: '5511999998888:3@s.whatsapp.net' };
    first.emit('creds.update', {});
    await waitFor(() => t.db.selectFrom('baileysCreds').select('creds').where('whatsappId', '=', id).executeTakeFirst(), (r) => !!r?.creds.includes('5511999998888'));
    const keys = first.config.auth.keys;
    await keys.set({ 'pre-key': { '7': { public: Buffer.from([1, 2, 3]), private: Buffer.from([4, 5]) } }, session: { 'x.0': Buffer.from('sess') } });
    const got = await keys.get('pre-key', ['7', '8']);
    expect(Buffer.from(got['7'].public)).toEqual(Buffer.from([1, 2, 3]));
    expect(got['8']).toBeUndefined();
    await keys.set({ session: { 'x.0': null } });
    expect(await keys.get('session', ['x.0'])).toEqual({});

    first.emit('connection.update', { isNewLogin: true });
    await manager.flush(id);
    expect((await rowOf(id)).status).toBe('PAIRING');
    first.emit('connection.update', { connection: 'close', lastDisconnect: { error: boom(515, 'restart required') } });
    await waitFor(async () => sockets.length, (n) => n === 2);
    const second = last();
    second.user = { id: '5511999998888:3@s.whatsapp.net' };
    second.emit('connection.update', { connection: 'open' });
    await manager.flush(id);
    expect(await rowOf(id)).toMatchObject({ status: 'CONNECTED', qrcode: '', number: '5511999998888', retries: 0 });
  });

  it('maps messages.upsert, messages.update and calls; sends text, quoted, media, location and vcard', async () => {
    const channel = manager.getChannel(pairedId)!;
    const s = last();
    const key = (n: number) => ({ id: `IN${n}`, remoteJid: '5511977776666@s.whatsapp.net', remoteJidAlt: '99887766@lid', fromMe: false });
    s.emit('messages.upsert', {
      type: 'notify',
      messages: [
        { key: key(1), pushName: 'Ana', messageTimestamp: 1_700_000_000, message: { conversation: 'Oi' } },
        { key: key(2), message: { extendedTextMessage: { text: 'Re: oi', contextInfo: { stanzaId: 'SENT1' } } } },
        { key: key(3), message: { imageMessage: { caption: 'foto', mimetype: 'image/png' } } },
        { key: key(4), message: { locationMessage: { degreesLatitude: -23.5, degreesLongitude: -46.6, name: 'Sé' } } },
        { key: key(5), message: { contactMessage: { displayName: 'Bia', vcard: 'BEGIN:VCARD\nFN:Bia\nEND:VCARD' } } },
        { key: { id: 'ST', remoteJid: 'status@broadcast' }, message: { conversation: 'ignored' } },
      ],
    });
    await waitFor(async () => inbound.length, (n) => n >= 5);
    const [text, quoted, image, location, vcard] = inbound.map((e) => e.message);
    expect(text).toMatchObject({ id: 'IN1', body: 'Oi', fromMe: false, timestamp: '2023-11-14T22:13:20.000Z', from: { jid: '5511977776666@s.whatsapp.net', lid: '99887766@lid', number: '5511977776666', name: 'Ana' } });
    expect(quoted).toMatchObject({ body: 'Re: oi', quotedId: 'SENT1' });
    expect(image).toMatchObject({ mediaType: 'image', body: 'foto', media: { data: png, mimeType: 'image/png' } });
    expect(location).toMatchObject({ mediaType: 'location', location: { latitude: -23.5, longitude: -46.6, description: 'Sé' } });
    expect(vcard).toMatchObject({ mediaType: 'vcard', body: 'Bia', vcard: expect.stringContaining('FN:Bia') });

    s.emit('messages.update', [{ key: { id: 'SENT1', remoteJid: '5511977776666@s.whatsapp.net' }, update: { status: 4 } }]);
    s.emit('call', [{ id: 'CALL1', from: '5511977776666@s.whatsapp.net', status: 'offer', isVideo: true, date: new Date() }]);
    await waitFor(async () => acks.length + inbound.length, (n) => n >= 7);
    expect(acks).toEqual([expect.objectContaining({ id: 'SENT1', ack: 3 })]);
    expect(inbound[5]!.message).toMatchObject({ id: 'CALL1', mediaType: 'call_log', from: { number: '5511977776666' } });

    const to = { number: '5511977776666' };
    expect(await channel.send({ to, content: { kind: 'text', body: 'Olá' }, quotedId: 'IN1' })).toMatchObject({ id: 'SENT1' });
    await channel.send({ to, content: { kind: 'media', mediaType: 'image', data: png, mimeType: 'image/png', fileName: 'a.png', caption: 'c' } });
    await channel.send({ to, content: { kind: 'media', mediaType: 'audio', data: png, mimeType: 'audio/ogg', fileName: 'a.ogg', ptt: true } });
    await channel.send({ to, content: { kind: 'location', latitude: 1, longitude: 2, description: 'Here' } });
    await channel.send({ to, content: { kind: 'vcard', displayName: 'Bia', vcard: 'BEGIN:VCARD\nEND:VCARD' } });
    expect(s.sent.map((m) => m.jid)).toEqual(Array(5).fill('5511977776666@s.whatsapp.net'));
    expect(s.sent[0]).toMatchObject({ content: { text: 'Olá' }, opts: { quoted: { key: { id: 'IN1' } } } });
    expect(s.sent[1]!.content).toMatchObject({ image: png, caption: 'c', mimetype: 'image/png' });
    expect(s.sent[2]!.content).toMatchObject({ audio: png, ptt: true });
    expect(s.sent[3]!.content).toEqual({ location: { degreesLatitude: 1, degreesLongitude: 2, name: 'Here' } });
    expect(s.sent[4]!.content).toEqual({ contacts: { displayName: 'Bia', contacts: [{ vcard: 'BEGIN:VCARD\nEND:VCARD' }] } });
    expect(await channel.checkNumbers(['5511977776666', '5500000000'])).toEqual([
      { number: '5511977776666', exists: true, jid: '5511977776666@s.whatsapp.net' },
      { number: '5500000000', exists: false },
    ]);
  });

  it('maps the edits and revokes Baileys reports as messages.update (MESSAGE_EDIT, REVOKE) to changes', async () => {
    const s = last();
    const jid = '5511977776666@s.whatsapp.net';
    s.emit('messages.update', [
      // process-message's MESSAGE_EDIT: the original id, the new message under editedMessage.
      { key: { id: 'IN1', remoteJid: jid }, update: { message: { editedMessage: { message: { conversation: 'Oi, tudo bem?' } } }, messageTimestamp: 1_700_000_100 } },
      { key: { id: 'IN3', remoteJid: jid }, update: { message: { editedMessage: { message: { protocolMessage: { type: 14, editedMessage: { imageMessage: { caption: 'nova legenda' } } } } } } } },
      // REVOKE: message null and the REVOKE stub.
      { key: { id: 'IN2', remoteJid: jid }, update: { message: null, messageStubType: 1, key: { id: 'PROTO', remoteJid: jid } } },
      // Not a change: a plain ack.
      { key: { id: 'SENT9', remoteJid: jid }, update: { status: 3 } },
    ]);
    await waitFor(async () => changes.length, (n) => n >= 3);
    expect(changes).toEqual([
      { id: 'IN1', kind: 'edit', body: 'Oi, tudo bem?', timestamp: '2023-11-14T22:15:00.000Z' },
      { id: 'IN3', kind: 'edit', body: 'nova legenda', timestamp: expect.any(String) },
      { id: 'IN2', kind: 'revoke', timestamp: expect.any(String) },
    ]);
  });

  it('keeps the address book from contacts.upsert, contacts.update and messaging-history.set, across sockets', async () => {
    const channel = manager.getChannel(pairedId)!;
    const s = last();
    s.emit('contacts.upsert', [
      { id: '5511911112222@s.whatsapp.net', name: 'Saved Name' },
      { id: '4455@lid', phoneNumber: '5511933334444@s.whatsapp.net', notify: 'Pushed' },
      { id: '120363@g.us', name: 'A group' },
    ]);
    s.emit('messaging-history.set', { chats: [], messages: [], contacts: [{ id: '5511955556666@s.whatsapp.net', verifiedName: 'Shop' }] });
    s.emit('contacts.update', [{ id: '5511911112222@s.whatsapp.net', name: 'Renamed' }]);
    const expected = [
      { jid: '5511911112222@s.whatsapp.net', number: '5511911112222', name: 'Renamed' },
      { jid: '5511933334444@s.whatsapp.net', lid: '4455@lid', number: '5511933334444', name: 'Pushed' },
      { jid: '5511955556666@s.whatsapp.net', number: '5511955556666', name: 'Shop' },
    ];
    const sorted = (peers: { number?: string }[]) => [...peers].sort((a, b) => a.number!.localeCompare(b.number!));
    await waitFor(() => channel.listContacts(), (peers) => peers.length === 3 && peers.some((p) => p.name === 'Renamed'));
    expect(sorted(await channel.listContacts())).toEqual(expected);
    // Stored with the pairing: a fresh channel of the connection (a restart) reads the same book.
    const { createAuthStore } = await import('../auth-store.ts');
    const row = await rowOf(pairedId);
    const stored = () => t.db.selectFrom('baileysKeys').select(['keyId', 'value']).where('whatsappId', '=', pairedId).where('type', '=', 'zapdesk-contact').execute();
    // The writes land in the order of the events, so once the rename is stored nothing older follows it.
    await waitFor(stored, (rows) => rows.length === 3 && rows.some((r) => r.value.includes('Renamed')));
    const fresh = createBaileysFactory({ log: t.log })({ id: pairedId, companyId: row.companyId, provider: 'beta' }, createAuthStore(t.db, row.companyId, pairedId), () => undefined);
    expect(sorted(await fresh.listContacts())).toEqual(expected);
  });

  it('reconnects with backoff after a network close; 401 wipes the session', async () => {
    const id = pairedId;
    const before = sockets.length;
    last().emit('connection.update', { connection: 'close', lastDisconnect: { error: boom(428, 'Connection Closed') } });
    await manager.flush(id);
    expect(await rowOf(id)).toMatchObject({ status: 'OPENING', retries: 1 });
    await waitFor(async () => sockets.length, (n) => n === before + 1);
    last().user = { id: '5511999998888@s.whatsapp.net' };
    last().emit('connection.update', { connection: 'open' });
    await manager.flush(id);
    expect(await rowOf(id)).toMatchObject({ status: 'CONNECTED', retries: 0 });

    last().emit('connection.update', { connection: 'close', lastDisconnect: { error: boom(401, 'logged out') } });
    await waitFor(() => rowOf(id), (r) => r.status === 'DISCONNECTED');
    await waitFor(() => t.db.selectFrom('baileysCreds').select('whatsappId').where('whatsappId', '=', id).executeTakeFirst(), (r) => r === undefined);
    expect(sockets.length).toBe(before + 1);
    expect(await manager.getChannel(id)!.listContacts()).toEqual([]);
  });

  it('pairs by code: requestPairingCode once the socket shows its first QR, for the given number', async () => {
    const { id, companyId } = await newConnection();
    const before = sockets.length;
    const code = manager.requestPairingCode(companyId, id, '5511988887777');
    await waitFor(async () => sockets.length, (n) => n === before + 1);
    last().emit('connection.update', { qr: '2@first' });
    expect(await code).toBe('ABCD-1234');
    expect(last().pairingFor).toEqual(['5511988887777']);
    expect(await manager.pairingCode(companyId, id)).toBe('ABCD-1234');
    last().emit('connection.update', { qr: '2@second' });
    await manager.flush(id);
    expect(last().pairingFor).toEqual(['5511988887777']);
    expect(await rowOf(id)).toMatchObject({ status: 'qrcode', qrcode: '2@second' });
  });

  it('ends in TIMEOUT on "QR refs attempts ended" and past its own QR cap', async () => {
    const a = await newConnection();
    await manager.start(a.companyId, a.id);
    last().emit('connection.update', { connection: 'close', lastDisconnect: { error: boom(408, 'QR refs attempts ended') } });
    await waitFor(() => rowOf(a.id), (r) => r.status === 'TIMEOUT');

    const b = await newConnection();
    await manager.start(b.companyId, b.id);
    for (const qr of ['q1', 'q2', 'q3']) last().emit('connection.update', { qr });
    await waitFor(() => rowOf(b.id), (r) => r.status === 'TIMEOUT');
    expect(last().ended).toBe(true);
    expect((await rowOf(b.id)).qrcode).toBe('');
  });
});
