// A quick answer with an attachment sends its file (spec/02 §2.5), over REST (JSON and multipart)
// and over the sendMessage mutator, through the outbox to the simulated phone; and the holder who
// reads a ticket as messages arrive counts them read (the markTicketRead mutator), nobody else.
import type { MutationError } from '@zapdesk/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNumber, setupDesk } from '../../../test/conversation.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { tenant } from '../../db/tenant.ts';

const PDF = '%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n';

describe.each(DIALECTS)('quick answers and reading on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  let seq = 0;
  function pusher(token: string) {
    const group = `qa-${dialect}-${++seq}`;
    const client = `qc-${dialect}-${seq}`;
    let id = 0;
    return {
      async push(name: string, args: unknown) {
        const res = await t.request('POST', '/sync/push', {
          token,
          body: { pushVersion: 1, schemaVersion: '', profileID: 'p', clientGroupID: group, mutations: [{ id: ++id, clientID: client, name, args, timestamp: Date.now() }] },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      },
      async errors(): Promise<MutationError[]> {
        const res = await t.request('POST', '/sync/pull', { token, body: { pullVersion: 1, schemaVersion: '', profileID: 'p', clientGroupID: group, cookie: null } });
        return (res.body.patch as { op: string; key: string; value: MutationError }[]).filter((p) => p.op === 'put' && p.key.startsWith('mutationError/')).map((p) => p.value);
      },
    };
  }

  async function quickMessage(token: string, body: Record<string, unknown>, file?: { name: string; bytes: string }) {
    const created = await t.request('POST', '/quick-messages', { token, body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    if (file) {
      const form = new FormData();
      form.append('file', new Blob([Buffer.from(file.bytes)]), file.name);
      const res = await t.app.request(`/quick-messages/${created.body.id}/media-upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      expect(res.status).toBe(200);
    }
    return created.body.id as number;
  }

  /** A customer in the first queue whose ticket the desk's attendant holds. */
  async function heldTicket(desk: Awaited<ReturnType<typeof setupDesk>>) {
    const from = newNumber();
    await desk.say(from, 'hi');
    const { id } = (await desk.ticketOf(from))!;
    const accepted = await t.request('PUT', `/tickets/${id}`, { token: desk.userSession.token, body: { status: 'open', userId: desk.user.id } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    return { from, id };
  }

  it('sends the attachment with the text over REST (JSON and multipart) and over push, through the outbox', async () => {
    const desk = await setupDesk(t, { queues: [{ greetingMessage: null }] });
    const quick = await quickMessage(desk.adminSession.token, { shortcode: 'prices', message: 'Our prices', geral: true }, { name: 'prices.pdf', bytes: PDF });
    const { from, id } = await heldTicket(desk);
    const token = desk.userSession.token;

    const json = await t.request('POST', `/messages/${id}`, { token, body: { body: 'Our prices', quickMessageId: quick, signMessage: true } });
    expect(json.status, JSON.stringify(json.body)).toBe(201);
    expect(json.body).toMatchObject({ fromMe: true, mediaType: 'application', body: `*${desk.user.name}*:\nOur prices` });
    expect(json.body.mediaUrl).toMatch(/\.pdf$/);

    // Multipart: the quick answer's file first (with the caption), then the agent's own.
    const form = new FormData();
    form.append('body', 'Both files');
    form.append('quickMessageId', String(quick));
    form.append('medias', new Blob([Buffer.from('hello')], { type: 'text/plain' }), 'notes.txt');
    const multi = await t.app.request(`/messages/${id}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    expect(multi.status).toBe(201);
    const { messages } = (await multi.json()) as { messages: { body: string; mediaType: string }[] };
    expect(messages.map((m) => [m.body, m.mediaType])).toEqual([
      ['Both files', 'application'],
      ['', 'application'],
    ]);

    // Push, with a blank body: the file alone.
    const me = pusher(token);
    await me.push('sendMessage', { ticketId: id, localId: 'quick0001', body: '', quickMessageId: quick, signMessage: true, userId: desk.user.id, sentAt: new Date().toISOString() });
    expect(await me.errors()).toEqual([]);

    const sent = await desk.outbox(from);
    expect(sent.filter((m) => m.fileName === 'prices.pdf').map((m) => m.body)).toEqual([`*${desk.user.name}*:\nOur prices`, 'Both files', '']);
    expect(sent.some((m) => m.fileName === 'notes.txt')).toBe(true);
    // Each send has its own copy of the file in the ticket's folder, the quick message keeps its own.
    const rows = await tenant(t.db, desk.companyId).selectFrom('messages').select('messages.mediaUrl').where('messages.ticketId', '=', id).where('messages.mediaType', '=', 'application').execute();
    expect(new Set(rows.map((r) => r.mediaUrl)).size).toBe(rows.length);
    expect((await t.request('GET', `/quick-messages/${quick}/media`, { token })).status).toBe(200);
  });

  it('a quick answer without a file sends the text; one the sender may not use is refused and nothing is queued', async () => {
    const desk = await setupDesk(t, { queues: [{ greetingMessage: null }] });
    const plain = await quickMessage(desk.userSession.token, { shortcode: 'hello', message: 'Hello!' });
    const others = await quickMessage(desk.adminSession.token, { shortcode: 'mine', message: 'Private', geral: false }, { name: 'secret.pdf', bytes: PDF });
    const { from, id } = await heldTicket(desk);
    const token = desk.userSession.token;
    const count = async () => Number((await tenant(t.db, desk.companyId).selectFrom('messages').select((eb) => eb.fn.countAll().as('n')).where('messages.ticketId', '=', id).executeTakeFirstOrThrow()).n);

    const text = await t.request('POST', `/messages/${id}`, { token, body: { body: 'Hello!', quickMessageId: plain } });
    expect(text.status).toBe(201);
    expect(text.body).toMatchObject({ mediaType: null, mediaUrl: null });

    const before = await count();
    const refused = await t.request('POST', `/messages/${id}`, { token, body: { body: 'x', quickMessageId: others } });
    expect(refused.status).toBe(404);
    const blank = await t.request('POST', `/messages/${id}`, { token, body: { body: ' ', quickMessageId: plain } });
    expect(blank.status).toBe(400);
    const me = pusher(token);
    await me.push('sendMessage', { ticketId: id, localId: 'quick0002', body: 'x', quickMessageId: others, signMessage: false, userId: desk.user.id, sentAt: new Date().toISOString() });
    expect((await me.errors()).map((e) => e.code)).toEqual(['ERR_NOT_FOUND']);
    expect(await count()).toBe(before);
    expect((await desk.outbox(from)).some((m) => m.fileName === 'secret.pdf')).toBe(false);
  });

  it('markTicketRead: the holder reading the ticket zeroes its unread count; an admin peeking or an outsider changes nothing', async () => {
    const desk = await setupDesk(t, { queues: [{ greetingMessage: null }] });
    const { from, id } = await heldTicket(desk);
    const unread = async () => (await tenant(t.db, desk.companyId).selectFrom('tickets').select(['tickets.unreadMessages', 'tickets.version']).where('tickets.id', '=', id).executeTakeFirstOrThrow());
    await desk.say(from, 'one');
    await desk.say(from, 'two');
    const waiting = (await unread()).unreadMessages;
    expect(waiting).toBeGreaterThanOrEqual(2);

    const admin = pusher(desk.adminSession.token);
    await admin.push('markTicketRead', { ticketId: id });
    expect(await admin.errors()).toEqual([]);
    expect((await unread()).unreadMessages).toBe(waiting);

    const outsider = pusher(desk.outsiderSession.token);
    await outsider.push('markTicketRead', { ticketId: id });
    expect((await outsider.errors()).map((e) => e.code)).toEqual(['ERR_NO_PERMISSION']);
    expect((await unread()).unreadMessages).toBe(waiting);

    const holder = pusher(desk.userSession.token);
    const before = await unread();
    await holder.push('markTicketRead', { ticketId: id });
    expect(await holder.errors()).toEqual([]);
    const after = await unread();
    expect(after.unreadMessages).toBe(0);
    expect(after.version).toBeGreaterThan(before.version);
    const read = await tenant(t.db, desk.companyId).selectFrom('messages').select('messages.read').where('messages.ticketId', '=', id).where('messages.fromMe', '=', 0).execute();
    expect(read.every((m) => m.read === 1)).toBe(true);
    // Already read: nothing changes, not even the version.
    await holder.push('markTicketRead', { ticketId: id });
    expect((await unread()).version).toBe(after.version);
  });
});
