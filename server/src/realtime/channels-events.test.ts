// The live channels' events that no REST call of the entity itself makes (issue 18): imports (one
// message per batch carrying its records), a user's presence and language, a campaign started by
// the job, cancelled, restarted and finished, a sent message's acks, and a contact's edit and
// revoke. A raw WebSocket client (test/channel-consumer.ts), as an integrator would write one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { tenant } from '../db/tenant.ts';
import { runCampaignPass } from '../modules/campaigns/dispatch/job.ts';
import { generateInvoices } from '../jobs/invoices.ts';
import { settleProfilePictures } from '../modules/contacts/profile-picture.ts';
import { DIALECTS } from '../../test/harness.ts';
import { consumer, liveProblems } from '../../test/channel-consumer.ts';
import { setupDesk, newNumber, numberWithPicture } from '../../test/conversation.ts';
import { startLiveApp, waitFor, type LiveApp } from '../../test/live.ts';

type Records<T> = T[];
type ContactRecord = { id: number; name: string; number: string; email: string; extraInfo: unknown[] };

describe.each(DIALECTS)('live channel events beyond REST (%s)', (dialect) => {
  let live: LiveApp;
  let desk: Awaited<ReturnType<typeof setupDesk>>;
  const sockets: WebSocket[] = [];
  const open = async (token: string) => {
    const c = await consumer(live, token);
    sockets.push(c.ws);
    return c;
  };
  const ch = (name: string) => `company-${desk.companyId}-${name}`;
  const req = (method: string, url: string, body?: unknown, token = desk.adminSession.token) => live.request(method, url, { token, body });

  beforeAll(async () => {
    live = await startLiveApp(dialect);
    desk = await setupDesk(live);
    await live.db.updateTable('plans').set({ useCampaigns: 1 }).where('id', '=', desk.plan.id).execute();
  });
  afterAll(async () => {
    for (const ws of sockets) ws.terminate();
    await live?.close();
    // Every event a consumer got matched its documented schema (/openapi.json x-zapdesk-live-channels).
    expect(liveProblems).toEqual([]);
  });

  it('announces an import as one message per batch with every record, and the list check as item updates', async () => {
    const c = await open(desk.adminSession.token);
    await c.join(ch('contact'));
    const rows = Array.from({ length: 7 }, (_, i) => ({ name: `Imported ${i}`, number: `5511933${dialect === 'sqlite' ? 1 : 2}0000${i}`, email: i === 0 ? 'first@example.test' : '' }));
    // Two batches of 5 and 2 rows (the route takes a batch per call), one row a duplicate of the file.
    const first = await req('POST', '/contacts/import/rows', { rows: rows.slice(0, 5), firstRow: 2, importId: `imp-${dialect}` });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const second = await req('POST', '/contacts/import/rows', { rows: [...rows.slice(5), rows[0]!], firstRow: 7, importId: `imp-${dialect}` });
    expect(second.body).toMatchObject({ imported: 2 });

    const a = await c.event(ch('contact'), 'create');
    const b = await c.event(ch('contact'), 'create');
    const batchA = a.data!.contacts as Records<ContactRecord>;
    const batchB = b.data!.contacts as Records<ContactRecord>;
    expect(Object.keys(a.data!)).toEqual(['action', 'contacts']);
    expect(batchA.map((r) => r.number)).toEqual(rows.slice(0, 5).map((r) => r.number));
    expect(batchB.map((r) => r.name)).toEqual(['Imported 5', 'Imported 6']);
    // Each record is what GET /contacts/{id} answers.
    expect(batchA[0]).toEqual((await req('GET', `/contacts/${batchA[0]!.id}`)).body);
    expect(batchA[0]!.email).toBe('first@example.test');

    // A contact list's spreadsheet: the items of the batch on the list's own channel, then the
    // WhatsApp check of what landed, again one message per batch.
    const list = (await req('POST', '/contact-lists', { name: 'Sheet' })).body as { id: number };
    const perList = ch(`ContactListItem-${list.id}`);
    expect(await c.join(perList)).toEqual({ type: 'joined', channel: perList });
    await req('POST', '/simulator/numbers', { connectionId: desk.connectionId, number: '5511944440002', exists: false });
    const form = new FormData();
    form.append('file', new Blob(['name,number\nLia,5511944440001\nLeo,5511944440002\n'], { type: 'text/csv' }), 'list.csv');
    const upload = await fetch(`${live.url}/contact-lists/${list.id}/upload`, { method: 'POST', headers: { authorization: `Bearer ${desk.adminSession.token}` }, body: form });
    expect(upload.status).toBe(200);
    await upload.text();
    const items = await c.event(perList, 'create');
    expect((items.data!.ContactListItems as { name: string; isWhatsappValid: boolean | null }[]).map((i) => [i.name, i.isWhatsappValid])).toEqual([
      ['Lia', null],
      ['Leo', null],
    ]);
    const checked = await c.event(perList, 'update');
    expect((checked.data!.ContactListItems as { name: string; isWhatsappValid: boolean | null }[]).map((i) => [i.name, i.isWhatsappValid])).toEqual([
      ['Lia', true],
      ['Leo', false],
    ]);
  });

  it("announces a user's presence and language on the users channel", async () => {
    const c = await open(desk.adminSession.token);
    await c.join(ch('user'));
    // The attendant opens the web (a socket): online.
    const attendant = await open(desk.userSession.token);
    const online = await c.next((m) => m.type === 'event' && m.channel === ch('user') && (m.data?.user as { id: number } | undefined)?.id === desk.user.id);
    expect(online.data).toMatchObject({ action: 'update', user: { id: desk.user.id, online: true } });
    // They switch their language.
    expect((await req('POST', '/users/set-language/es', undefined, desk.userSession.token)).status).toBe(200);
    const language = await c.next((m) => m.type === 'event' && m.channel === ch('user') && (m.data?.user as { language?: string } | undefined)?.language === 'es');
    expect(language.data).toMatchObject({ action: 'update', user: { id: desk.user.id, language: 'es', online: true } });
    // They close it: offline once the grace period is over.
    attendant.ws.close();
    const offline = await c.next((m) => m.type === 'event' && m.channel === ch('user') && (m.data?.user as { online: boolean } | undefined)?.online === false);
    expect(offline.data).toMatchObject({ action: 'update', user: { id: desk.user.id, online: false } });
  });

  it('announces a campaign started by the job, cancelled, restarted and finished', async () => {
    const c = await open(desk.adminSession.token);
    await c.join(ch('campaign'));
    await req('POST', '/campaign-settings', { settings: { messageInterval: 0, messageJitter: 0, longerIntervalAfter: 0, greaterInterval: 0, hourlyLimit: 0, dailyLimit: 0 } });
    const list = (await req('POST', '/contact-lists', { name: 'Campaign list' })).body as { id: number };
    for (let i = 0; i < 2; i++) await req('POST', '/contact-list-items', { contactListId: list.id, name: `Rec ${i}`, number: newNumber() });
    const at = new Date(Date.now() + 3_600_000);
    const created = await req('POST', '/campaigns', { name: 'Live', message1: 'Oi {nome}', whatsappId: desk.connectionId, contactListId: list.id, scheduledAt: at.toISOString() });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    const status = async (want: string) => {
      const e = await c.next((m) => m.type === 'event' && m.channel === ch('campaign') && (m.data?.campaign as { id: number; status: string } | undefined)?.status === want);
      expect(e.data).toMatchObject({ action: 'update', campaign: { id, status: want } });
    };
    await c.event(ch('campaign'), 'create');
    // Cancel it before its time, restart it: each a live update.
    expect((await req('POST', `/campaigns/${id}/cancel`)).status).toBe(200);
    await status('CANCELADA');
    expect((await req('POST', `/campaigns/${id}/restart`)).status).toBe(200);
    await status('EM_ANDAMENTO');
    expect((await req('POST', `/campaigns/${id}/cancel`)).status).toBe(200);
    await status('CANCELADA');
    // A second campaign, started by the job when its time comes.
    const second = await req('POST', '/campaigns', { name: 'Live 2', message1: 'Olá', whatsappId: desk.connectionId, contactListId: list.id, scheduledAt: at.toISOString() });
    await runCampaignPass(live.deps, { now: () => new Date(at.getTime() + 1_000) });
    const started = await c.next((m) => m.type === 'event' && m.channel === ch('campaign') && (m.data?.campaign as { id: number; status: string } | undefined)?.id === second.body.id && m.data?.action === 'update');
    expect(started.data).toMatchObject({ campaign: { id: second.body.id, status: 'EM_ANDAMENTO' } });
    // It runs to its end: FINALIZADA.
    await waitFor(async () => {
      await runCampaignPass(live.deps, { now: () => new Date(at.getTime() + 2_000) });
      await live.deps.outbox.idle();
      const row = await tenant(live.db, desk.companyId).selectFrom('campaigns').select('campaigns.status').where('campaigns.id', '=', second.body.id).executeTakeFirstOrThrow();
      return row.status === 'FINALIZADA';
    });
    const finished = await c.next((m) => m.type === 'event' && m.channel === ch('campaign') && (m.data?.campaign as { id: number; status: string } | undefined)?.status === 'FINALIZADA');
    expect(finished.data).toMatchObject({ action: 'update', campaign: { id: second.body.id, status: 'FINALIZADA' } });
  });

  it("announces a sent message's acks and a contact's edit and revoke as message updates", async () => {
    const c = await open(desk.adminSession.token);
    await c.join(ch('appMessage'));
    const number = newNumber();
    const inboundWid = await desk.say(number, 'first version');
    const inbound = await c.next((m) => m.type === 'event' && m.channel === ch('appMessage') && (m.data?.message as { body: string } | undefined)?.body === 'first version');
    const ticket = (await desk.ticketOf(number))!;
    const messageOf = (m: { data?: Record<string, unknown> }) => (m.data?.message ?? {}) as { id: number; body: string; ack: number; isEdited: boolean; isDeleted: boolean; fromMe: boolean };

    expect((await req('PUT', `/tickets/${ticket.id}`, { status: 'open', userId: desk.admin.id })).status).toBe(200);
    const sent = await req('POST', `/messages/${ticket.id}`, { body: 'our answer' });
    expect(sent.status, JSON.stringify(sent.body)).toBeLessThan(300);
    const created = await c.next((m) => m.type === 'event' && m.data?.action === 'create' && messageOf(m).body === 'our answer');
    expect(messageOf(created).ack).toBe(0);
    // The network took it: ack 1.
    const out = await desk.outbox(number);
    const one = await c.next((m) => m.data?.action === 'update' && messageOf(m).id === messageOf(created).id && messageOf(m).ack === 1);
    expect(messageOf(one)).toMatchObject({ fromMe: true, body: 'our answer' });
    // Delivered, then read.
    for (const ack of [2, 3]) {
      expect((await req('POST', '/simulator/acks', { connectionId: desk.connectionId, messageId: out.at(-1)!.id, ack })).status).toBe(200);
      await c.next((m) => m.data?.action === 'update' && messageOf(m).id === messageOf(created).id && messageOf(m).ack === ack);
    }
    // The contact edits, then deletes, their message.
    const inboundId = messageOf(inbound).id;
    expect((await req('POST', '/simulator/edits', { connectionId: desk.connectionId, messageId: inboundWid, body: 'second version' })).status).toBe(200);
    const edited = await c.next((m) => m.data?.action === 'update' && messageOf(m).id === inboundId && messageOf(m).isEdited);
    expect(messageOf(edited).body).toBe('second version');
    expect((await req('POST', '/simulator/revokes', { connectionId: desk.connectionId, messageId: inboundWid })).status).toBe(200);
    await c.next((m) => m.data?.action === 'update' && messageOf(m).id === inboundId && messageOf(m).isDeleted);
  });

  it('sends update and delete with the record on every channel, the session status, and the payment', async () => {
    const c = await open(desk.adminSession.token);
    const names = ['whatsapp', 'whatsappSession', 'user', 'chat', 'ticket', 'contact', 'file', 'prompt', 'queueIntegration', 'queue', 'ContactList', 'ContactListItem', 'campaign', 'payment'];
    for (const name of names) expect(await c.join(ch(name))).toEqual({ type: 'joined', channel: ch(name) });
    /** The update's record is what GET answers afterwards; the delete carries the id. */
    const updated = async (name: string, key: string, getUrl: string) => {
      const e = await c.event(ch(name), 'update');
      expect(e.data).toEqual({ action: 'update', [key]: (await req('GET', getUrl)).body });
    };
    const deleted = async (name: string, key: string, id: number) => expect((await c.event(ch(name), 'delete')).data).toEqual({ action: 'delete', [`${key}Id`]: id });
    const ok = async (p: Promise<{ status: number; body: unknown }>) => {
      const res = await p;
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      return res.body as { id: number };
    };

    const wa = await ok(req('POST', '/whatsapp', { name: 'Second line', provider: 'simulator' }));
    await c.event(ch('whatsapp'), 'create');
    await ok(req('PUT', `/whatsapp/${wa.id}`, { name: 'Second line (renamed)' }));
    // Its session may move (status, QR) between the event and a GET: the rename is what is checked.
    const renamed = await c.next((m) => m.channel === ch('whatsapp') && m.data?.action === 'update' && (m.data.whatsapp as { name: string } | undefined)?.name === 'Second line (renamed)');
    expect(renamed.data).toMatchObject({ action: 'update', whatsapp: { id: wa.id, name: 'Second line (renamed)' } });
    // Its session: starting it shows a QR, scanning it connects (whatsappSession updates).
    await ok(req('POST', `/whatsappsession/${wa.id}`));
    const qr = await c.next((m) => m.channel === ch('whatsappSession') && (m.data?.whatsappSession as { status: string } | undefined)?.status === 'qrcode');
    expect(qr.data).toMatchObject({ action: 'update', whatsappSession: { id: wa.id, status: 'qrcode' } });
    await ok(req('POST', `/simulator/connections/${wa.id}/scan`));
    await c.next((m) => m.channel === ch('whatsappSession') && (m.data?.whatsappSession as { id: number; status: string } | undefined)?.status === 'CONNECTED');
    await ok(req('DELETE', `/whatsapp/${wa.id}`));
    await deleted('whatsapp', 'whatsapp', wa.id);

    const user = await ok(req('POST', '/users', { name: 'Duda', email: `duda-${dialect}@example.test`, password: 'Secret123', profile: 'user' }));
    await c.event(ch('user'), 'create');
    await ok(req('PUT', `/users/${user.id}`, { name: 'Duda Souza' }));
    const userEvent = await c.event(ch('user'), 'update');
    expect(userEvent.data).toEqual({ action: 'update', user: { ...(await req('GET', `/users/${user.id}`)).body, language: null } });
    await ok(req('DELETE', `/users/${user.id}`));
    await deleted('user', 'user', user.id);

    const chat = await ok(req('POST', '/chats', { title: 'Ops', users: [{ id: desk.user.id }] }));
    await c.event(ch('chat'), 'create');
    await ok(req('PUT', `/chats/${chat.id}`, { title: 'Ops room', users: [{ id: desk.user.id }] }));
    await updated('chat', 'chat', `/chats/${chat.id}`);
    await ok(req('DELETE', `/chats/${chat.id}`));
    await deleted('chat', 'chat', chat.id);

    const contact = await ok(req('POST', '/contacts', { name: 'Eva', number: numberWithPicture() }));
    await c.event(ch('contact'), 'create');
    // Its profile picture is asked of the connection in the background: an update of its own.
    await settleProfilePictures(live.deps);
    const picture = await c.next((m) => m.channel === ch('contact') && m.data?.action === 'update' && Boolean((m.data.contact as { profilePicUrl: string | null } | undefined)?.profilePicUrl));
    expect(picture.data).toMatchObject({ contact: { id: contact.id, name: 'Eva' } });
    await ok(req('PUT', `/contacts/${contact.id}`, { name: 'Eva Lima' }));
    await updated('contact', 'contact', `/contacts/${contact.id}`);
    const ticket = await ok(req('POST', '/tickets', { contactId: contact.id, status: 'open', whatsappId: desk.connectionId }));
    await c.event(ch('ticket'), 'create');
    await ok(req('DELETE', `/tickets/${ticket.id}`));
    await deleted('ticket', 'ticket', ticket.id);
    await ok(req('DELETE', `/contacts/${contact.id}`));
    await deleted('contact', 'contact', contact.id);

    const file = await ok(req('POST', '/files', { name: 'Menu', message: 'Our menu', options: [] }));
    await c.event(ch('file'), 'create');
    await ok(req('PUT', `/files/${file.id}`, { name: 'Menu 2', message: 'Our menu', options: [] }));
    await updated('file', 'file', `/files/${file.id}`);
    await ok(req('DELETE', `/files/${file.id}`));
    await deleted('file', 'file', file.id);

    await live.db.updateTable('plans').set({ useOpenAi: 1, useIntegrations: 1 }).where('id', '=', desk.plan.id).execute();
    const queue = await ok(req('POST', '/queue', { name: 'AI desk', color: '#0A1B2C' }));
    const prompt = await ok(req('POST', '/prompt', { name: 'Helper', prompt: 'You answer questions about bread, politely and briefly.', apiKey: 'sk-test-123456789', queueId: queue.id }));
    await c.event(ch('prompt'), 'create');
    await ok(req('PUT', `/prompt/${prompt.id}`, { name: 'Helper 2' }));
    await updated('prompt', 'prompt', `/prompt/${prompt.id}`);
    await ok(req('DELETE', `/prompt/${prompt.id}`));
    await deleted('prompt', 'prompt', prompt.id);

    const integration = await ok(req('POST', '/queueIntegration', { type: 'webhook', name: 'Hook', urlN8N: 'https://hooks.example.com/y' }));
    await c.event(ch('queueIntegration'), 'create');
    await ok(req('PUT', `/queueIntegration/${integration.id}`, { type: 'webhook', name: 'Hook 2', urlN8N: 'https://hooks.example.com/z' }));
    await updated('queueIntegration', 'queueIntegration', `/queueIntegration/${integration.id}`);
    await ok(req('DELETE', `/queueIntegration/${integration.id}`));
    await deleted('queueIntegration', 'queueIntegration', integration.id);

    const list = await ok(req('POST', '/contact-lists', { name: 'Temp' }));
    await c.event(ch('ContactList'), 'create');
    await ok(req('PUT', `/contact-lists/${list.id}`, { name: 'Temp 2' }));
    await updated('ContactList', 'ContactList', `/contact-lists/${list.id}`);
    const item = await ok(req('POST', '/contact-list-items', { contactListId: list.id, name: 'Gil', number: newNumber() }));
    await c.event(ch('ContactListItem'), 'create');
    // The new item's number is checked on WhatsApp after its write: once that is stored, the update's event and a GET read the same record.
    await expect.poll(async () => (await req('GET', `/contact-list-items/${item.id}`)).body.isWhatsappValid).not.toBeNull();
    await ok(req('PUT', `/contact-list-items/${item.id}`, { name: 'Gil Souza' }));
    const itemEvent = await c.next((m) => m.channel === ch('ContactListItem') && m.data?.action === 'update' && (m.data.ContactListItem as { name: string } | undefined)?.name === 'Gil Souza');
    expect(itemEvent.data).toEqual({ action: 'update', ContactListItem: (await req('GET', `/contact-list-items/${item.id}`)).body });

    const campaign = await ok(req('POST', '/campaigns', { name: 'Draft' }));
    await c.event(ch('campaign'), 'create');
    await ok(req('PUT', `/campaigns/${campaign.id}`, { name: 'Draft 2' }));
    await updated('campaign', 'campaign', `/campaigns/${campaign.id}`);
    await ok(req('DELETE', `/campaigns/${campaign.id}`));
    await deleted('campaign', 'campaign', campaign.id);
    // A campaign naming the list loses it when the list goes: an update of the campaign.
    const named = await ok(req('POST', '/campaigns', { name: 'Uses the list', contactListId: list.id }));
    await c.event(ch('campaign'), 'create');
    await ok(req('DELETE', `/contact-lists/${list.id}`));
    await deleted('ContactList', 'ContactList', list.id);
    const detached = await c.event(ch('campaign'), 'update');
    expect(detached.data).toMatchObject({ campaign: { id: named.id, contactListId: null } });

    // The payment: under the joined channel's full name, once.
    await live.db.updateTable('companies').set((eb) => ({ dueDate: new Date(Date.now() + 3 * 86_400_000).toISOString(), version: eb('version', '+', 1) })).where('id', '=', desk.companyId).execute();
    await generateInvoices(live.deps);
    const invoice = await live.db.selectFrom('invoices').select('id').where('companyId', '=', desk.companyId).executeTakeFirstOrThrow();
    await ok(req('POST', `/simulator/payments/${invoice.id}/confirm`));
    const payment = await c.event(ch('payment'));
    expect(payment.data).toMatchObject({ action: 'CONCLUIDA', invoiceId: invoice.id });
    expect(c.got.filter((m) => m.type === 'event' && m.channel === 'payment')).toEqual([]);
  });
});
