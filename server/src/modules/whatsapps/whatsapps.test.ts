import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../../test/harness.ts';
import { seedSuper, seedTenant } from '../../../test/seed.ts';
import { newNumber, setupDesk } from '../../../test/conversation.ts';
import { expectSearches, sliceBesideAnotherWrite, slicePlans } from '../../../test/slices.ts';
import { waitFor } from '../../channels/testing.ts';
import { tenant } from '../../db/tenant.ts';
import { inSlices } from '../../db/slices.ts';
import { failQueuedSlice, releaseConnectionSlice } from './service.ts';

describe.each(DIALECTS)('connections on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  const create = (token: string, body: Record<string, unknown>) => t.request('POST', '/whatsapp', { token, body });

  it('creates with the spec defaults; the first connection is the default; a token is generated', async () => {
    const { adminSession } = await seedTenant(t);
    const res = await create(adminSession.token, { name: 'Main line' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Main line', status: 'DISCONNECTED', isDefault: true, provider: 'beta', qrcode: '', retries: 0,
      maxUseBotQueues: 3, expiresTicket: 0, timeUseBotQueues: 0, timeToTransfer: 0, queues: [], schedules: [],
    });
    expect(res.body.token).toMatch(/^[\w-]{32}$/);
    const second = await create(adminSession.token, { name: 'Second', provider: 'simulator', token: 'my-own-token-123' });
    expect(second.body).toMatchObject({ isDefault: false, provider: 'simulator', token: 'my-own-token-123' });
  });

  it('validates the name and refuses malformed bodies with 400', async () => {
    const { adminSession } = await seedTenant(t);
    const short = await create(adminSession.token, { name: 'x' });
    expect(short.status).toBe(400);
    expect(short.body.issues[0]).toMatchObject({ path: 'name', message: 'Too Short!' });
    expect((await create(adminSession.token, { name: 'y'.repeat(51) })).body.issues[0].message).toBe('Too Long!');
    expect((await create(adminSession.token, { name: 'Ok name', provider: 'whatsmeow' })).status).toBe(400);
    expect((await t.request('POST', '/whatsapp', { token: adminSession.token, body: '{"name":' })).body.error).toBe('ERR_INVALID_JSON');
    expect((await t.request('GET', '/whatsapp/abc', { token: adminSession.token })).body.error).toBe('ERR_NO_WAPP_FOUND');
  });

  it('keeps a single default: setting one clears the others; un-defaulting is ERR_NO_OTHER_WHATSAPP; deleting promotes the oldest', async () => {
    const { adminSession } = await seedTenant(t);
    const token = adminSession.token;
    const a = (await create(token, { name: 'A line' })).body;
    const b = (await create(token, { name: 'B line' })).body;
    const c = (await create(token, { name: 'C line', isDefault: true })).body;
    const list = async () => (await t.request('GET', '/whatsapp', { token })).body as { id: number; isDefault: boolean }[];
    expect((await list()).filter((w) => w.isDefault).map((w) => w.id)).toEqual([c.id]);

    const undefault = await t.request('PUT', `/whatsapp/${c.id}`, { token, body: { isDefault: false } });
    expect(undefault.status).toBe(400);
    expect(undefault.body.error).toBe('ERR_NO_OTHER_WHATSAPP');

    expect((await t.request('PUT', `/whatsapp/${b.id}`, { token, body: { isDefault: true } })).body.isDefault).toBe(true);
    expect((await list()).filter((w) => w.isDefault).map((w) => w.id)).toEqual([b.id]);

    expect((await t.request('DELETE', `/whatsapp/${b.id}`, { token })).status).toBe(200);
    expect((await list()).filter((w) => w.isDefault).map((w) => w.id)).toEqual([a.id]);
    // The last connection may go: with none left there is no default to keep.
    await t.request('DELETE', `/whatsapp/${c.id}`, { token });
    expect((await t.request('DELETE', `/whatsapp/${a.id}`, { token })).status).toBe(200);
    expect(await list()).toEqual([]);
  });

  /** An attendant's open ticket on a connection that then went down: what they send waits in the outbox. */
  async function openTicketOnDroppedConnection() {
    const desk = await setupDesk(t, { queues: [{}] });
    const from = newNumber();
    await desk.say(from, 'hello');
    const ticket = (await desk.ticketOf(from))!;
    const token = desk.userSession.token;
    await t.request('PUT', `/tickets/${ticket.id}`, { token, body: { status: 'open' } });
    await t.request('POST', `/simulator/connections/${desk.connectionId}/drop`, { token: desk.adminSession.token, body: { cause: 'replaced' } });
    return { desk, ticket, token };
  }

  it('deleting a connection fails what still waited to leave through it (ERR_NO_WAPP_FOUND) and leaves its outbox empty', async () => {
    const { desk, ticket, token } = await openTicketOnDroppedConnection();
    const queued = await t.request('POST', `/messages/${ticket.id}`, { token, body: { body: 'still there?' } });
    expect(queued.body).toMatchObject({ sendStatus: 'queued', ack: 0 });
    const db = tenant(t.db, desk.companyId);
    const outbox = () => db.selectFrom('outbox').select('outbox.messageId').execute();
    expect(await outbox()).toEqual([{ messageId: queued.body.id }]);
    const ticketBefore = await db.selectFrom('tickets').select(['whatsappId', 'version']).where('tickets.id', '=', ticket.id).executeTakeFirstOrThrow();
    expect(ticketBefore.whatsappId).toBe(desk.connectionId);

    expect((await t.request('DELETE', `/whatsapp/${desk.connectionId}`, { token: desk.adminSession.token })).status).toBe(200);
    const page = await t.request('GET', `/messages/${ticket.id}`, { token });
    const message = page.body.messages.find((m: { id: number }) => m.id === queued.body.id);
    expect(message).toMatchObject({ sendStatus: 'failed', sendError: 'ERR_NO_WAPP_FOUND', ack: 0 });
    expect(message.version).toBeGreaterThan(queued.body.version);
    expect(await outbox()).toEqual([]);
    // The ticket lost its connection with a new version, so synced clients see it; the session ended after the commit.
    const ticketAfter = await db.selectFrom('tickets').select(['whatsappId', 'version']).where('tickets.id', '=', ticket.id).executeTakeFirstOrThrow();
    expect(ticketAfter.whatsappId).toBeNull();
    expect(ticketAfter.version).toBeGreaterThan(ticketBefore.version);
    await waitFor(async () => t.deps.sessions.getChannel(desk.connectionId), (channel) => channel === undefined);
  });

  it("fails a deleted connection's waiting messages a slice at a time, other writes in between; another company's id touches nothing", async () => {
    const { desk, ticket, token } = await openTicketOnDroppedConnection();
    const other = await seedTenant(t);
    const sent: number[] = [];
    for (let i = 0; i < 5; i++) sent.push((await t.request('POST', `/messages/${ticket.id}`, { token, body: { body: `waiting ${i}` } })).body.id);
    const db = tenant(t.db, desk.companyId);
    const waiting = async () => (await db.selectFrom('outbox').select('outbox.id').where('outbox.whatsappId', '=', desk.connectionId).execute()).length;
    expect(await waiting()).toBe(5);

    await inSlices(t.deps, (tx, limit) => failQueuedSlice(tx, other.company.id, desk.connectionId, limit), 2);
    expect(await waiting()).toBe(5);

    await sliceBesideAnotherWrite(t, other.company.id, (tx, limit) => failQueuedSlice(tx, desk.companyId, desk.connectionId, limit), async () => (await waiting()) > 0);
    expect(await waiting()).toBe(0);
    const rows = await db.selectFrom('messages').select(['messages.sendStatus', 'messages.sendError']).where('messages.id', 'in', sent).execute();
    expect(rows).toEqual(sent.map(() => ({ sendStatus: 'failed', sendError: 'ERR_NO_WAPP_FOUND' })));
    expect((await t.request('DELETE', `/whatsapp/${desk.connectionId}`, { token: desk.adminSession.token })).status).toBe(200);
  });

  it('lets go of a deleted connection a slice at a time: its tickets, contacts, messages and trackings, with other writes in between', async () => {
    const { company, adminSession } = await seedTenant(t);
    const other = await seedTenant(t);
    const db = tenant(t.db, company.id);
    const busy = (await create(adminSession.token, { name: 'Busy line', provider: 'simulator' })).body;
    const kept = (await create(adminSession.token, { name: 'Kept line', provider: 'simulator' })).body;
    for (const [i, whatsappId] of [busy.id, busy.id, busy.id, busy.id, busy.id, kept.id].entries()) {
      const contact = await db.insertInto('contacts', { name: `C${i}`, number: `5511955550${i}`, whatsappId }).returning('contacts.id').executeTakeFirstOrThrow();
      const ticket = await db.insertInto('tickets', { uuid: crypto.randomUUID(), contactId: contact.id, whatsappId, status: 'open' }).returning('tickets.id').executeTakeFirstOrThrow();
      for (const n of [1, 2]) await db.insertInto('messages', { wid: `W${busy.id}-${i}-${n}`, ticketId: ticket.id, contactId: contact.id, whatsappId, body: 'oi', fromMe: 0, ack: 0, read: 1 }).execute();
      await db.insertInto('ticketTrackings', { ticketId: ticket.id, whatsappId }).execute();
    }
    const held = async (id: number) => ({
      tickets: (await db.selectFrom('tickets').select('tickets.id').where('tickets.whatsappId', '=', id).execute()).length,
      contacts: (await db.selectFrom('contacts').select('contacts.id').where('contacts.whatsappId', '=', id).execute()).length,
      messages: (await db.selectFrom('messages').select('messages.id').where('messages.whatsappId', '=', id).execute()).length,
      trackings: (await db.selectFrom('ticketTrackings').select('ticketTrackings.id').where('ticketTrackings.whatsappId', '=', id).execute()).length,
    });
    expect(await held(busy.id)).toEqual({ tickets: 5, contacts: 5, messages: 10, trackings: 5 });
    const ticketVersions = async () => (await db.selectFrom('tickets').select(['tickets.id', 'tickets.version']).orderBy('tickets.id').execute()).map((r) => r.version);
    const before = await ticketVersions();

    // Asked for by another company, the connection's id matches none of its rows.
    await inSlices(t.deps, (tx, limit) => releaseConnectionSlice(tx, other.company.id, busy.id, limit), 2);
    expect(await held(busy.id)).toEqual({ tickets: 5, contacts: 5, messages: 10, trackings: 5 });

    await sliceBesideAnotherWrite(t, other.company.id, (tx, limit) => releaseConnectionSlice(tx, company.id, busy.id, limit), async () => (await held(busy.id)).tickets > 0);
    expect(await held(busy.id)).toEqual({ tickets: 0, contacts: 0, messages: 0, trackings: 0 });
    expect(await held(kept.id)).toEqual({ tickets: 1, contacts: 1, messages: 2, trackings: 1 });
    // Synced clients see the tickets let go: their versions moved; the kept line's did not.
    const after = await ticketVersions();
    expect(after.slice(0, 5).every((v, i) => v > before[i]!)).toBe(true);
    expect(after[5]).toBe(before[5]);
    // Each statement of a whole run searches the connection's indexes (SQLite's plans): the kept
    // line's rows, let go by a run of their own.
    const plans = await slicePlans(t, (tx, limit) => releaseConnectionSlice(tx, company.id, kept.id, limit), 100);
    if (dialect === 'sqlite') expectSearches(plans);
    expect(await held(kept.id)).toEqual({ tickets: 0, contacts: 0, messages: 0, trackings: 0 });

    expect((await t.request('DELETE', `/whatsapp/${busy.id}`, { token: adminSession.token })).status).toBe(200);
    expect((await t.request('GET', '/whatsapp', { token: adminSession.token })).body.map((w: { id: number }) => w.id)).toEqual([kept.id]);
  });

  it("enforces the plan's connection limit with a clear 403", async () => {
    const { adminSession } = await seedTenant(t, { connections: 2 } as never);
    await create(adminSession.token, { name: 'One' });
    await create(adminSession.token, { name: 'Two' });
    const third = await create(adminSession.token, { name: 'Three' });
    expect(third.status).toBe(403);
    expect(third.body.error).toBe('ERR_NO_PERMISSION');
    expect(third.body.message).toMatch(/allows 2 connection/);
  });

  it('updates fields, queues (own company only) and schedules; bumps version', async () => {
    const { adminSession, company } = await seedTenant(t);
    const token = adminSession.token;
    const other = await seedTenant(t);
    const q = (await t.request('POST', '/queue', { token, body: { name: 'Support', color: '#112233' } })).body;
    const foreignQueue = (await t.request('POST', '/queue', { token: other.adminSession.token, body: { name: 'Theirs', color: '#445566' } })).body;
    const w = (await create(token, { name: 'Line', queueIds: [q.id] })).body;
    expect(w.queues).toEqual([expect.objectContaining({ id: q.id, name: 'Support', color: '#112233' })]);
    const updated = await t.request('PUT', `/whatsapp/${w.id}`, {
      token,
      body: { name: 'Renamed', greetingMessage: 'Olá!', maxUseBotQueues: 5, schedules: [{ weekdayEn: 'monday', startTime: '09:00', endTime: '17:00' }], status: 'CONNECTED' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ name: 'Renamed', greetingMessage: 'Olá!', maxUseBotQueues: 5, status: 'DISCONNECTED', companyId: company.id });
    expect(updated.body.schedules).toEqual([{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '09:00', endTime: '17:00' }]);
    expect(updated.body.version).toBeGreaterThan(w.version);
    const bad = await t.request('PUT', `/whatsapp/${w.id}`, { token, body: { queueIds: [foreignQueue.id] } });
    expect(bad.status).toBe(400);
    expect(bad.body.issues[0].path).toBe('queueIds');
    expect((await t.request('PUT', `/whatsapp/${w.id}`, { token, body: { transferQueueId: foreignQueue.id } })).status).toBe(400);
  });

  it('shows the token to admins only and leaves out the QR with session=0', async () => {
    const { adminSession, userSession } = await seedTenant(t);
    const w = (await create(adminSession.token, { name: 'Line' })).body;
    const asUser = await t.request('GET', '/whatsapp', { token: userSession.token });
    expect(asUser.status).toBe(200);
    expect(asUser.body[0].token).toBeUndefined();
    expect((await t.request('GET', `/whatsapp/${w.id}`, { token: userSession.token })).body.token).toBeUndefined();
    expect((await t.request('GET', `/whatsapp/${w.id}`, { token: adminSession.token })).body.token).toBe(w.token);
    const light = (await t.request('GET', '/whatsapp?session=0', { token: adminSession.token })).body[0];
    expect(light.qrcode).toBeUndefined();
    expect(light.status).toBe('DISCONNECTED');
  });

  it('lets only admins change connections and refuses other companies ids everywhere', async () => {
    const { adminSession, userSession } = await seedTenant(t);
    const other = await seedTenant(t);
    const w = (await create(adminSession.token, { name: 'Line' })).body;
    expect((await create(userSession.token, { name: 'Nope' })).status).toBe(403);
    expect((await t.request('PUT', `/whatsapp/${w.id}`, { token: userSession.token, body: { name: 'Nope' } })).status).toBe(403);
    expect((await t.request('DELETE', `/whatsapp/${w.id}`, { token: userSession.token })).status).toBe(403);
    for (const [method, url] of [['GET', `/whatsapp/${w.id}`], ['PUT', `/whatsapp/${w.id}`], ['DELETE', `/whatsapp/${w.id}`], ['POST', `/whatsappsession/${w.id}`], ['PUT', `/whatsappsession/${w.id}`], ['DELETE', `/whatsappsession/${w.id}`]] as const) {
      const res = await t.request(method, url, { token: other.adminSession.token, body: method === 'PUT' && url.startsWith('/whatsapp/') ? { name: 'Mine now' } : undefined });
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body.error).toBe('ERR_NO_WAPP_FOUND');
    }
    // Another company's id in companyId is honoured for the super-admin only; anyone else gets the
    // 404 of an unknown company (auth/company-scope.ts), for reads and writes alike.
    const list = await t.request('GET', `/whatsapp?companyId=${w.companyId}`, { token: other.adminSession.token });
    expect(list.status).toBe(404);
    expect(list.body.error).toBe('ERR_NO_COMPANY_FOUND');
    expect((await create(other.adminSession.token, { name: 'Theirs?', companyId: w.companyId })).body.error).toBe('ERR_NO_COMPANY_FOUND');
    expect((await t.request('GET', `/queue?companyId=${w.companyId}`, { token: other.adminSession.token })).body.error).toBe('ERR_NO_COMPANY_FOUND');
    expect((await t.request('GET', `/whatsapp?companyId=${other.company.id}`, { token: other.adminSession.token })).body).toEqual([]);
    const { session } = await seedSuper(t);
    const asSuper = await t.request('GET', `/whatsapp?companyId=${w.companyId}`, { token: session.token });
    expect(asSuper.body.map((x: { id: number }) => x.id)).toEqual([w.id]);
    const unknown = await t.request('GET', '/whatsapp?companyId=987654', { token: session.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('ERR_NO_COMPANY_FOUND');
  });
});
