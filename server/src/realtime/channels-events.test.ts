// The live channels' events that no REST call of the entity itself makes (issue 18): imports (one
// message per batch carrying its records), a user's presence and language, a campaign started by
// the job, cancelled, restarted and finished, a sent message's acks, and a contact's edit and
// revoke. A raw WebSocket client (test/channel-consumer.ts), as an integrator would write one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { tenant } from '../db/tenant.ts';
import { runCampaignPass } from '../modules/campaigns/dispatch/job.ts';
import { DIALECTS } from '../../test/harness.ts';
import { consumer } from '../../test/channel-consumer.ts';
import { setupDesk, newNumber } from '../../test/conversation.ts';
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
    const online = await c.next((m) => m.type === 'event' && m.channel === ch('user') && (m.data?.user as { id: number }).id === desk.user.id);
    expect(online.data).toMatchObject({ action: 'update', user: { id: desk.user.id, online: true } });
    // They switch their language.
    expect((await req('POST', '/users/set-language/es', undefined, desk.userSession.token)).status).toBe(200);
    const language = await c.next((m) => m.type === 'event' && m.channel === ch('user') && (m.data?.user as { language?: string }).language === 'es');
    expect(language.data).toMatchObject({ action: 'update', user: { id: desk.user.id, language: 'es', online: true } });
    // They close it: offline once the grace period is over.
    attendant.ws.close();
    const offline = await c.next((m) => m.type === 'event' && m.channel === ch('user') && (m.data?.user as { online: boolean }).online === false);
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
      const e = await c.next((m) => m.type === 'event' && m.channel === ch('campaign') && (m.data?.campaign as { id: number; status: string }).status === want);
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
    const started = await c.next((m) => m.type === 'event' && m.channel === ch('campaign') && (m.data?.campaign as { id: number; status: string }).id === second.body.id && m.data?.action === 'update');
    expect(started.data).toMatchObject({ campaign: { id: second.body.id, status: 'EM_ANDAMENTO' } });
    // It runs to its end: FINALIZADA.
    await waitFor(async () => {
      await runCampaignPass(live.deps, { now: () => new Date(at.getTime() + 2_000) });
      await live.deps.outbox.idle();
      const row = await tenant(live.db, desk.companyId).selectFrom('campaigns').select('campaigns.status').where('campaigns.id', '=', second.body.id).executeTakeFirstOrThrow();
      return row.status === 'FINALIZADA';
    });
    const finished = await c.next((m) => m.type === 'event' && m.channel === ch('campaign') && (m.data?.campaign as { id: number; status: string }).status === 'FINALIZADA');
    expect(finished.data).toMatchObject({ action: 'update', campaign: { id: second.body.id, status: 'FINALIZADA' } });
  });

  it("announces a sent message's acks and a contact's edit and revoke as message updates", async () => {
    const c = await open(desk.adminSession.token);
    await c.join(ch('appMessage'));
    const number = newNumber();
    const inboundWid = await desk.say(number, 'first version');
    const inbound = await c.next((m) => m.type === 'event' && m.channel === ch('appMessage') && (m.data?.message as { body: string }).body === 'first version');
    const ticket = (await desk.ticketOf(number))!;
    const messageOf = (m: { data?: Record<string, unknown> }) => m.data?.message as { id: number; body: string; ack: number; isEdited: boolean; isDeleted: boolean; fromMe: boolean };

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
});
