import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { newNumber, setupDesk } from '../../../test/conversation.ts';
import { tenant } from '../../db/tenant.ts';
import { ingest } from '../../inbound/ingest.ts';
import { waitFor } from '../../channels/testing.ts';
import { write } from '../../db/write.ts';
import { sliceBesideAnotherWrite } from '../../../test/slices.ts';
import { markReadSlice, markTicketRead, READ_IN_OPENING } from './service.ts';

const MB = 1024 * 1024;


const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];
describe.each(DIALECTS)('messages on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  /** A desk with a customer's ticket accepted by the attendant. */
  async function openTicket() {
    const desk = await setupDesk(t, { queues: [{}] });
    const from = newNumber();
    const firstId = await desk.say(from, 'hello there');
    const ticket = (await desk.ticketOf(from))!;
    return { desk, from, firstId, ticket };
  }

  /** `bytes` long; a .png or .jpg starts as one (`fake`: it does not). */
  function upload(token: string, ticketId: number, files: { name: string; type: string; bytes: number; fake?: boolean }[], fields: Record<string, string> = {}) {
    const form = new FormData();
    for (const f of files) {
      const data = new Uint8Array(f.bytes);
      if (!f.fake) data.set(/\.png$/.test(f.name) ? PNG_SIGNATURE : /\.jpe?g$/.test(f.name) ? JPEG_SIGNATURE : [], 0);
      form.append('medias', new Blob([data], { type: f.type }), f.name);
    }
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    return t.app.request(`/messages/${ticketId}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  }

  it('sends only in open tickets; signs, quotes, queues the message (ack 0, queued), then records ack 1 and the network id; refuses an empty body', async () => {
    const { desk, from, firstId, ticket } = await openTicket();
    const token = desk.userSession.token;
    const pending = await t.request('POST', `/messages/${ticket.id}`, { token, body: { body: 'too early' } });
    expect(pending.status).toBe(403);
    expect(pending.body.error).toBe('ERR_NO_PERMISSION');
    await t.request('PUT', `/tickets/${ticket.id}`, { token, body: { status: 'open' } });

    const first = await t.request('GET', `/messages/${ticket.id}`, { token });
    const inbound = first.body.messages[0];
    const sent = await t.request('POST', `/messages/${ticket.id}`, { token, body: { body: 'How can I help?', signMessage: true, quotedMsg: { id: inbound.id }, fromMe: true, read: 1, mediaUrl: '' } });
    expect(sent.status).toBe(201);
    // Answered as soon as it is a row: queued, not yet on the network.
    expect(sent.body).toMatchObject({ body: `*${desk.user.name}*:\nHow can I help?`, fromMe: true, ack: 0, sendStatus: 'queued', sendError: null, read: true, quotedMsg: { id: inbound.id, body: 'hello there' } });
    const out = (await desk.outbox(from)).at(-1)!;
    expect(out).toMatchObject({ body: `*${desk.user.name}*:\nHow can I help?`, quotedId: firstId });
    const stored = await tenant(t.db, desk.companyId).selectFrom('messages').selectAll().where('messages.id', '=', sent.body.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ wid: out.id, ack: 1, sendStatus: 'sent', sendError: null, version: sent.body.version + 1 });
    expect(await desk.ticketOf(from)).toMatchObject({ lastMessage: `*${desk.user.name}*:\nHow can I help?` });

    const blank = await t.request('POST', `/messages/${ticket.id}`, { token, body: { body: '   ' } });
    expect(blank.status).toBe(400);
    expect(blank.body.error).toBe('ERR_VALIDATION');
    // Another attendant may not write in a ticket that is not theirs.
    expect((await t.request('POST', `/messages/${ticket.id}`, { token: desk.outsiderSession.token, body: { body: 'x' } })).status).toBe(403);
  });

  it('GET pages newest first (oldest first inside a page) and marks the holder’s ticket read', async () => {
    const { desk, from, ticket } = await openTicket();
    for (let i = 1; i <= 24; i++) await desk.say(from, `m${i}`);
    const token = desk.userSession.token;
    // Not the holder yet: reading does not clear the count.
    const peek = await t.request('GET', `/messages/${ticket.id}`, { token });
    expect(peek.body.ticket.unreadMessages).toBe(25);
    await t.request('PUT', `/tickets/${ticket.id}`, { token, body: { status: 'open' } });
    const page1 = await t.request('GET', `/messages/${ticket.id}?pageNumber=1`, { token });
    expect(page1.body.hasMore).toBe(true);
    expect(page1.body.messages.map((m: { body: string }) => m.body)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 5}`));
    expect(page1.body.ticket).toMatchObject({ id: ticket.id, unreadMessages: 0 });
    const page2 = await t.request('GET', `/messages/${ticket.id}?pageNumber=2`, { token });
    expect(page2.body.hasMore).toBe(false);
    expect(page2.body.messages.map((m: { body: string }) => m.body)).toEqual(['hello there', 'm1', 'm2', 'm3', 'm4']);
    expect(page2.body.messages.every((m: { read: boolean }) => m.read)).toBe(true);
  });

  // SQLite takes 32,766 values per statement (PostgreSQL 65,535, which would take this test 25 s there).
  it.runIf(dialect === 'sqlite')('marks read a ticket whose unread messages are more than one statement takes ids', { timeout: 120_000 }, async () => {
    const { desk, ticket } = await openTicket();
    const token = desk.userSession.token;
    const db = tenant(t.db, desk.companyId);
    const N = 33_000;
    for (let i = 0; i < N; i += 3_000) {
      const rows = Array.from({ length: Math.min(3_000, N - i) }, (_, k) => ({ ticketId: ticket.id, contactId: ticket.contactId, wid: `backlog-${ticket.id}-${i + k}`, body: `m${i + k}`, fromMe: 0, read: 0 }));
      await db.insertInto('messages', rows).execute();
    }
    await t.request('PUT', `/tickets/${ticket.id}`, { token, body: { status: 'open' } });
    // Opening it as its holder once answered 500 (every unread id bound in one statement).
    const opened = await t.request('GET', `/messages/${ticket.id}`, { token });
    expect(opened.status).toBe(200);
    expect(opened.body.ticket.unreadMessages).toBe(0);
    // The newest in the opening write, the rest after it, a slice per write.
    await waitFor(() => unreadCount(desk.companyId, ticket.id), (n) => n === 0, 20_000);
  });

  async function unreadCount(companyId: number, ticketId: number): Promise<number> {
    const row = await tenant(t.db, companyId).selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n')).where('messages.ticketId', '=', ticketId).where('messages.read', '=', 0).where('messages.fromMe', '=', 0).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async function addUnread(companyId: number, ticket: { id: number; contactId: number }, n: number): Promise<void> {
    const rows = Array.from({ length: n }, (_, k) => ({ ticketId: ticket.id, contactId: ticket.contactId, wid: `unread-${ticket.id}-${k}`, body: `u${k}`, fromMe: 0, read: 0 }));
    for (let i = 0; i < n; i += 500) await tenant(t.db, companyId).insertInto('messages', rows.slice(i, i + 500)).execute();
  }

  it('opening a ticket marks its newest unread messages read in its own write and the older ones after it, a slice per write', async () => {
    const { desk, ticket } = await openTicket();
    const token = desk.userSession.token;
    await addUnread(desk.companyId, ticket, READ_IN_OPENING + 120);
    await t.request('PUT', `/tickets/${ticket.id}`, { token, body: { status: 'open' } });

    // The opening write alone (no commit, so no after-commit slices): the newest READ_IN_OPENING.
    const db = tenant(t.db, desk.companyId);
    const row = await db.selectFrom('tickets').selectAll().where('tickets.id', '=', ticket.id).executeTakeFirstOrThrow();
    const versions = async () => new Map((await db.selectFrom('messages').select(['messages.id', 'messages.version', 'messages.read']).where('messages.ticketId', '=', ticket.id).where('messages.fromMe', '=', 0).execute()).map((m) => [m.id, m]));
    const before = await versions();
    const rolledBack = new Error('look, then roll back');
    const seen = await write(t.deps, async (tx) => {
      await markTicketRead(tx, row);
      const inside = await tenant(tx.db, desk.companyId).selectFrom('messages').select(['messages.id', 'messages.read']).where('messages.ticketId', '=', ticket.id).where('messages.fromMe', '=', 0).orderBy('messages.id', 'desc').execute();
      throw Object.assign(rolledBack, { inside });
    }).catch((err: { inside: { id: number; read: number }[] }) => err.inside);
    expect(seen.slice(0, READ_IN_OPENING).every((m) => m.read === 1)).toBe(true);
    expect(seen.slice(READ_IN_OPENING).every((m) => m.read === 0)).toBe(true);
    expect(await unreadCount(desk.companyId, ticket.id)).toBe(before.size);

    // Through the route: zero unread at once, every message read soon after, each version bumped once.
    const opened = await t.request('GET', `/messages/${ticket.id}`, { token });
    expect(opened.status).toBe(200);
    expect(opened.body.ticket.unreadMessages).toBe(0);
    await waitFor(() => unreadCount(desk.companyId, ticket.id), (n) => n === 0);
    const after = await versions();
    for (const [id, m] of before) expect(after.get(id)!.version, `message ${id}`).toBe(m.version + 1);
  });

  it('markReadSlice marks only its ticket of its company, below the cursor, and lets another company write between slices', async () => {
    const { desk, ticket } = await openTicket();
    const other = await openTicket();
    await addUnread(desk.companyId, ticket, 9);
    // Another company's id (and another ticket of it) marks nothing.
    expect(await write(t.deps, (tx) => markReadSlice(tx, other.desk.companyId, ticket.id, 100))).toEqual([]);
    const all = await unreadCount(desk.companyId, ticket.id);
    expect(all).toBeGreaterThanOrEqual(9);
    const newest = await write(t.deps, (tx) => markReadSlice(tx, desk.companyId, ticket.id, 3));
    expect(newest).toHaveLength(3);
    expect(newest.map((m) => m.id)).toEqual([...newest.map((m) => m.id)].sort((a, b) => b - a));
    // Below the cursor only: the newest three stay as they are, the next ones go.
    const below = await write(t.deps, (tx) => markReadSlice(tx, desk.companyId, ticket.id, 2, newest.at(-1)!.id));
    expect(Math.max(...below.map((m) => m.id))).toBeLessThan(newest.at(-1)!.id);
    expect(await unreadCount(desk.companyId, ticket.id)).toBe(all - 5);
    await sliceBesideAnotherWrite(t, other.desk.companyId, async (tx, limit) => (await markReadSlice(tx, desk.companyId, ticket.id, limit)).length, async () => (await unreadCount(desk.companyId, ticket.id)) > 0);
    expect(await unreadCount(desk.companyId, ticket.id)).toBe(0);
  });

  it('uploads media within the caps and refuses wrong types and big files, storing nothing', async () => {
    const { desk, from, ticket } = await openTicket();
    const token = desk.userSession.token;
    await t.request('PUT', `/tickets/${ticket.id}`, { token, body: { status: 'open' } });
    const folder = path.join(t.deps.config.mediaDir, String(desk.companyId), 'tickets', String(ticket.id));
    const files = () => {
      try {
        return readdirSync(folder).length;
      } catch {
        return 0;
      }
    };
    const count = async () => (await tenant(t.db, desk.companyId).selectFrom('messages').select('messages.id').where('messages.ticketId', '=', ticket.id).execute()).length;
    const before = await count();

    const ok = await upload(token, ticket.id, [{ name: 'photo.png', type: 'image/png', bytes: 1024 }, { name: 'report.pdf', type: 'application/pdf', bytes: 2048 }], { body: 'See attached' });
    expect(ok.status).toBe(201);
    const { messages } = (await ok.json()) as { messages: { mediaType: string; mediaUrl: string; body: string; fileName: string }[] };
    expect(messages.map((m) => [m.mediaType, m.body, m.fileName])).toEqual([['image', 'See attached', 'photo.png'], ['application', '', 'report.pdf']]);
    // The stored file has a generated name; the chat shows the one it was sent with.
    expect(messages[1]!.mediaUrl).not.toContain('report.pdf');
    const out = (await desk.outbox(from)).slice(-2);
    expect(out.map((m) => [m.mediaType, m.fileName])).toEqual([['image', 'photo.png'], ['document', 'report.pdf']]);
    const served = await t.app.request(messages[0]!.mediaUrl, { headers: { authorization: `Bearer ${token}` } });
    expect(served.status).toBe(200);
    expect((await served.arrayBuffer()).byteLength).toBe(1024);
    const stored = files();
    expect(stored).toBe(2);

    const refusals: [{ name: string; type: string; bytes: number; fake?: boolean }[], number, string][] = [
      [[{ name: 'big.jpg', type: 'image/jpeg', bytes: 2 * MB + 1 }], 413, 'ERR_PAYLOAD_TOO_LARGE'],
      [[{ name: 'song.mp3', type: 'audio/mpeg', bytes: 5 * MB + 1 }], 413, 'ERR_PAYLOAD_TOO_LARGE'],
      [[{ name: 'movie.mp4', type: 'video/mp4', bytes: 20 * MB + 1 }], 413, 'ERR_PAYLOAD_TOO_LARGE'],
      [[{ name: 'tool.exe', type: 'application/octet-stream', bytes: 100 }], 415, 'ERR_UNSUPPORTED_MEDIA_TYPE'],
      [[{ name: 'clip.mov', type: 'video/quicktime', bytes: 100 }], 415, 'ERR_UNSUPPORTED_MEDIA_TYPE'],
      [[{ name: 'fake.png', type: 'video/mp4', bytes: 100 }], 415, 'ERR_UNSUPPORTED_MEDIA_TYPE'],
      // Named and declared an image, but its bytes are not one.
      [[{ name: 'photo.png', type: 'image/png', bytes: 100, fake: true }], 415, 'ERR_UNSUPPORTED_MEDIA_TYPE'],
      [[{ name: 'photo.jpg', type: 'image/jpeg', bytes: 100, fake: true }], 415, 'ERR_UNSUPPORTED_MEDIA_TYPE'],
      // One good file and one bad: nothing of the request is kept.
      [[{ name: 'fine.jpg', type: 'image/jpeg', bytes: 100 }, { name: 'bad.gif', type: 'image/gif', bytes: 100 }], 415, 'ERR_UNSUPPORTED_MEDIA_TYPE'],
    ];
    for (const [list, status, code] of refusals) {
      const res = await upload(token, ticket.id, list);
      expect(res.status, list.map((f) => f.name).join()).toBe(status);
      // The answer names the file refused, so the chat can say which one it was.
      expect(await res.json()).toMatchObject({ error: code, fileName: list.at(-1)!.name });
    }
    expect(await count()).toBe(before + 2);
    expect(files()).toBe(stored);
  });

  it('deletes own sent messages; refuses received ones; ERR_DELETE_WAPP_MSG when the network refuses', async () => {
    const { desk, from, ticket } = await openTicket();
    const token = desk.userSession.token;
    await t.request('PUT', `/tickets/${ticket.id}`, { token, body: { status: 'open' } });
    const sent = await t.request('POST', `/messages/${ticket.id}`, { token, body: { body: 'oops' } });
    const out = (await desk.outbox(from)).at(-1)!;
    const del = await t.request('DELETE', `/messages/${sent.body.id}`, { token });
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ id: sent.body.id, isDeleted: true, wid: out.id });
    expect((await desk.outbox(from)).find((m) => m.id === out.id)?.deleted).toBe(true);

    const inbound = (await t.request('GET', `/messages/${ticket.id}`, { token })).body.messages.find((m: { fromMe: boolean }) => !m.fromMe);
    expect((await t.request('DELETE', `/messages/${inbound.id}`, { token })).status).toBe(403);

    // Sent from the phone, not through us: the simulated network has nothing to delete.
    const phone = await ingest(t.deps, { id: desk.connectionId, companyId: desk.companyId }, { id: `PHONE-${from}`, from: { number: from }, fromMe: true, timestamp: new Date().toISOString(), body: 'from my phone' });
    expect(phone.status).toBe('stored');
    const refused = await t.request('DELETE', `/messages/${phone.status === 'stored' ? phone.messageId : 0}`, { token });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('ERR_DELETE_WAPP_MSG');
  });

  it('a message written while the connection is down stays queued (nothing lost) and leaves when it is back', async () => {
    const { desk, from, ticket } = await openTicket();
    const token = desk.userSession.token;
    await t.request('PUT', `/tickets/${ticket.id}`, { token, body: { status: 'open' } });
    await t.request('POST', `/simulator/connections/${desk.connectionId}/drop`, { token: desk.adminSession.token, body: { cause: 'replaced' } });
    const res = await t.request('POST', `/messages/${ticket.id}`, { token, body: { body: 'anyone?' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ body: 'anyone?', ack: 0, sendStatus: 'queued' });
    expect((await desk.outbox(from)).map((m) => m.body)).not.toContain('anyone?');
    const row = () => tenant(t.db, desk.companyId).selectFrom('messages').select(['sendStatus', 'ack']).where('messages.id', '=', res.body.id).executeTakeFirstOrThrow();
    expect(await row()).toEqual({ sendStatus: 'queued', ack: 0 });
    // The pairing was kept: starting the session again reconnects, and the queue leaves.
    await t.request('POST', `/whatsappsession/${desk.connectionId}`, { token: desk.adminSession.token });
    await waitFor(row, (r) => r.sendStatus === 'sent');
    expect((await desk.outbox(from)).map((m) => m.body)).toContain('anyone?');
    expect(await row()).toEqual({ sendStatus: 'sent', ack: 1 });
  });

  it('a number not on WhatsApp fails the message with its code; resend is refused until it failed, then queues it again', async () => {
    const { desk, from, ticket } = await openTicket();
    const token = desk.userSession.token;
    await t.request('PUT', `/tickets/${ticket.id}`, { token, body: { status: 'open' } });
    await t.request('POST', '/simulator/numbers', { token: desk.adminSession.token, body: { connectionId: desk.connectionId, number: from, exists: false } });
    const res = await t.request('POST', `/messages/${ticket.id}`, { token, body: { body: 'are you there?' } });
    expect(res.status).toBe(201);
    await t.deps.outbox.idle();
    const row = () => tenant(t.db, desk.companyId).selectFrom('messages').selectAll().where('messages.id', '=', res.body.id).executeTakeFirstOrThrow();
    expect(await row()).toMatchObject({ sendStatus: 'failed', sendError: 'ERR_WAPP_INVALID_CONTACT', ack: 0 });
    expect(await tenant(t.db, desk.companyId).selectFrom('outbox').selectAll().where('outbox.messageId', '=', res.body.id).execute()).toEqual([]);

    await t.request('POST', '/simulator/numbers', { token: desk.adminSession.token, body: { connectionId: desk.connectionId, number: from, exists: true } });
    expect((await t.request('POST', `/messages/${res.body.id}/resend`, { token: desk.outsiderSession.token })).status).toBe(403);
    const again = await t.request('POST', `/messages/${res.body.id}/resend`, { token });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: res.body.id, sendStatus: 'queued', sendError: null });
    await t.deps.outbox.idle();
    expect(await row()).toMatchObject({ sendStatus: 'sent', ack: 1 });
    expect((await desk.outbox(from)).filter((m) => m.body === 'are you there?')).toHaveLength(1);
    // Sent already: nothing to resend.
    const twice = await t.request('POST', `/messages/${res.body.id}/resend`, { token });
    expect(twice.status).toBe(400);
    expect(twice.body.error).toBe('ERR_VALIDATION');
    expect((await t.request('POST', '/messages/999999/resend', { token })).body.error).toBe('ERR_NOT_FOUND');
  });
});
