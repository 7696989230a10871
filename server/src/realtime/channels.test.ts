// Live channels on /sync/ws, with a raw WebSocket client (the `ws` package) as an external
// consumer would use them: join by name, an event for each entity after its REST change (the record
// as its REST GET answers it), refusals with catalogue codes, isolation between companies, leave.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DIALECTS } from '../../test/harness.ts';
import { consumer, liveProblems, type Msg } from '../../test/channel-consumer.ts';
import { startLiveApp, type LiveApp } from '../../test/live.ts';
import { seedContact, seedQueue, seedTenant, seedUser, loginAs } from '../../test/seed.ts';

describe.each(DIALECTS)('live channels on /sync/ws (%s)', (dialect) => {
  let live: LiveApp;
  let desk: Awaited<ReturnType<typeof seedTenant>>;
  let other: Awaited<ReturnType<typeof seedTenant>>;
  const sockets: WebSocket[] = [];
  const open = async (token: string) => {
    const c = await consumer(live, token);
    sockets.push(c.ws);
    return c;
  };
  beforeAll(async () => {
    live = await startLiveApp(dialect);
    const flags = { useOpenAi: 1, useIntegrations: 1, useCampaigns: 1, useInternalChat: 1 } as const;
    desk = await seedTenant(live, flags);
    other = await seedTenant(live, flags);
  });
  afterAll(async () => {
    for (const ws of sockets) ws.terminate();
    await live?.close();
    // Every event a consumer got matched its documented schema (/openapi.json x-zapdesk-live-channels).
    expect(liveProblems).toEqual([]);
  });

  it('sends an event with the REST record for each entity changed through the API', async () => {
    const c = await open(desk.adminSession.token);
    const cid = desk.company.id;
    const ch = (name: string) => `company-${cid}-${name}`;
    for (const name of ['queue', 'contact', 'ticket', 'file', 'ContactList', 'user', 'whatsapp', 'campaign', 'prompt', 'queueIntegration', 'chat', 'appMessage']) {
      expect(await c.join(ch(name))).toEqual({ type: 'joined', channel: ch(name) });
    }
    const token = desk.adminSession.token;
    const req = (method: string, url: string, body?: unknown) => live.request(method, url, { token, body });

    // Queues: create, update, delete, each with the record the REST call answered.
    const queue = await req('POST', '/queue', { name: 'Sales', color: '#112233' });
    expect((await c.event(ch('queue'), 'create')).data).toEqual({ action: 'create', queue: queue.body });
    const renamed = await req('PUT', `/queue/${queue.body.id}`, { name: 'Sales 2' });
    expect((await c.event(ch('queue'), 'update')).data).toEqual({ action: 'update', queue: renamed.body });
    const q2 = await req('POST', '/queue', { name: 'Support', color: '#445566', greetingMessage: 'Hi' });
    await c.event(ch('queue'), 'create');
    await req('PUT', `/queue/${queue.body.id}`, { greetingMessage: 'Hello' });
    await c.event(ch('queue'), 'update');
    expect((await req('DELETE', `/queue/${q2.body.id}`)).status).toBe(200);
    expect((await c.event(ch('queue'), 'delete')).data).toEqual({ action: 'delete', queueId: q2.body.id });

    const contact = await req('POST', '/contacts', { name: 'Ana', number: '5511988887777' });
    expect((await c.event(ch('contact'), 'create')).data).toEqual({ action: 'create', contact: contact.body });

    const connection = await req('POST', '/whatsapp', { name: 'Main line' });
    expect([200, 201]).toContain(connection.status);
    const wa = await c.event(ch('whatsapp'), 'create');
    expect((wa.data!.whatsapp as { id: number }).id).toBe(connection.body.id);

    const ticket = await req('POST', '/tickets', { contactId: contact.body.id, status: 'open', whatsappId: connection.body.id });
    expect(ticket.status).toBe(201);
    expect((await c.event(ch('ticket'), 'create')).data).toEqual({ action: 'create', ticket: ticket.body });
    const closed = await req('PUT', `/tickets/${ticket.body.id}`, { status: 'closed' });
    expect((await c.event(ch('ticket'), 'update')).data).toEqual({ action: 'update', ticket: closed.body });

    const file = await req('POST', '/files', { name: 'Price list', message: 'Here', options: [{ name: 'Logo' }] });
    expect((await c.event(ch('file'), 'create')).data).toEqual({ action: 'create', file: file.body });

    const list = await req('POST', '/contact-lists', { name: 'VIP' });
    expect((await c.event(ch('ContactList'), 'create')).data).toEqual({ action: 'create', ContactList: list.body });
    const perList = `company-${cid}-ContactListItem-${list.body.id}`;
    expect(await c.join(perList)).toEqual({ type: 'joined', channel: perList });
    await c.join(ch('ContactListItem'));
    const item = await req('POST', '/contact-list-items', { contactListId: list.body.id, name: 'Bia', number: '5511977776666' });
    expect((await c.event(perList, 'create')).data).toEqual({ action: 'create', ContactListItem: item.body });
    expect((await c.event(ch('ContactListItem'), 'create')).data).toEqual({ action: 'create', ContactListItem: item.body });
    await req('DELETE', `/contact-list-items/${item.body.id}`);
    expect((await c.event(perList, 'delete')).data).toEqual({ action: 'delete', ContactListItemId: item.body.id });

    const user = await req('POST', '/users', { name: 'Caio', email: `caio-${dialect}@example.test`, password: 'Secret123', profile: 'user' });
    // The users channel's record also carries the user's language (a language change is an update).
    expect((await c.event(ch('user'), 'create')).data).toEqual({ action: 'create', user: { ...user.body, language: null } });

    const campaign = await req('POST', '/campaigns', { name: 'Black Friday' });
    expect((await c.event(ch('campaign'), 'create')).data).toEqual({ action: 'create', campaign: campaign.body });

    const prompt = await req('POST', '/prompt', { name: 'Bakery bot', prompt: 'You answer questions about bread, politely and briefly.', apiKey: 'sk-test-123456789', queueId: queue.body.id });
    expect(prompt.status).toBe(201);
    const promptEvent = await c.event(ch('prompt'), 'create');
    expect(promptEvent.data).toEqual({ action: 'create', prompt: (await req('GET', `/prompt/${prompt.body.id}`)).body });

    const integration = await req('POST', '/queueIntegration', { type: 'webhook', name: 'Hook bot', urlN8N: 'https://hooks.example.com/x' });
    expect(integration.status).toBe(201);
    const integrationEvent = await c.event(ch('queueIntegration'), 'create');
    expect(integrationEvent.data).toEqual({ action: 'create', queueIntegration: (await req('GET', `/queueIntegration/${integration.body.id}`)).body });

    const chat = await req('POST', '/chats', { title: 'Team', users: [{ id: desk.user.id }] });
    expect((await c.event(ch('chat'), 'create')).data).toEqual({ action: 'create', chat: chat.body });
  });

  it('refuses another company, other profiles and unknown names with catalogue codes, and nothing leaks', async () => {
    const theirs = `company-${desk.company.id}-queue`;
    const outsider = await open(other.adminSession.token);
    expect(await outsider.join(theirs)).toMatchObject({ type: 'error', channel: theirs, error: 'ERR_NO_PERMISSION' });
    const attendant = await open(desk.userSession.token);
    expect(await attendant.join(theirs)).toMatchObject({ type: 'error', error: 'ERR_NO_PERMISSION' });
    expect(await attendant.join(`company-${desk.company.id}-ticket`)).toMatchObject({ type: 'error', error: 'ERR_NO_PERMISSION' });
    expect(await outsider.join('company-x-queue')).toMatchObject({ type: 'error', error: 'ERR_VALIDATION' });
    expect(await outsider.join(`company-${other.company.id}-nothing`)).toMatchObject({ type: 'error', error: 'ERR_VALIDATION' });
    // Another company's contact list is no list of theirs.
    const list = await live.request('POST', '/contact-lists', { token: desk.adminSession.token, body: { name: 'Theirs' } });
    expect(await outsider.join(`company-${other.company.id}-ContactListItem-${list.body.id}`)).toMatchObject({ type: 'error', error: 'ERR_NOT_FOUND' });

    // The outsider's own channel hears its own company only: desk's change first, then its own.
    const own = `company-${other.company.id}-queue`;
    expect(await outsider.join(own)).toEqual({ type: 'joined', channel: own });
    await live.request('POST', '/queue', { token: desk.adminSession.token, body: { name: 'Leak?', color: '#0A0B0C', greetingMessage: 'Hi' } });
    const mine = await live.request('POST', '/queue', { token: other.adminSession.token, body: { name: 'Mine', color: '#0C0B0A', greetingMessage: 'Hi' } });
    expect((await outsider.event(own, 'create')).data).toEqual({ action: 'create', queue: mine.body });
    expect(outsider.got.filter((m) => m.type === 'event' && m.channel !== 'payment')).toEqual([]);
    expect(attendant.got.filter((m) => m.type === 'event')).toEqual([]);
  });

  it('sends chat events to the chat members only', async () => {
    const admin2 = await seedUser(live, desk.company.id, { profile: 'admin' });
    const bystander = await open((await loginAs(live, admin2)).token);
    const member = await open(desk.adminSession.token);
    const ch = `company-${desk.company.id}-chat`;
    await bystander.join(ch);
    await member.join(ch);
    const chat = await live.request('POST', '/chats', { token: desk.adminSession.token, body: { title: 'Private', users: [{ id: desk.user.id }] } });
    expect((await member.event(ch, 'create')).data).toEqual({ action: 'create', chat: chat.body });
    // A marker the bystander does hear, after the chat's event would have come.
    await bystander.join(`company-${desk.company.id}-queue`);
    const queue = await seedQueue(live, desk.company.id);
    await live.request('PUT', `/queue/${queue.id}`, { token: desk.adminSession.token, body: { name: 'Marker', greetingMessage: 'Hi' } });
    await bystander.event(`company-${desk.company.id}-queue`, 'update');
    expect(bystander.events(ch)).toEqual([]);
  });

  it('stops the events of a channel once left', async () => {
    const c = await open(desk.adminSession.token);
    const contacts = `company-${desk.company.id}-contact`;
    const queues = `company-${desk.company.id}-queue`;
    await c.join(contacts);
    await c.join(queues);
    const contact = await seedContact(live, desk.company.id);
    await live.request('PUT', `/contacts/${contact.id}`, { token: desk.adminSession.token, body: { name: 'Before leaving' } });
    await c.event(contacts, 'update');
    expect(await c.leave(contacts)).toEqual({ type: 'left', channel: contacts });
    await live.request('PUT', `/contacts/${contact.id}`, { token: desk.adminSession.token, body: { name: 'After leaving' } });
    const q = await live.request('POST', '/queue', { token: desk.adminSession.token, body: { name: 'After', color: '#0D0E0F', greetingMessage: 'Hi' } });
    expect((await c.event(queues, 'create')).data).toEqual({ action: 'create', queue: q.body });
    expect(c.events(contacts)).toEqual([]);
  });

  it('answers a join sent as soon as the socket opens, before it is ready', async () => {
    const channel = `company-${desk.company.id}-queue`;
    const ws = new WebSocket(`${live.url.replace(/^http/, 'ws')}/sync/ws?token=${encodeURIComponent(desk.adminSession.token)}`);
    sockets.push(ws);
    const got: Msg[] = [];
    const joined = new Promise<void>((resolve) =>
      ws.on('message', (raw) => {
        got.push(JSON.parse(String(raw)) as Msg);
        if (got.some((m) => m.type === 'joined')) resolve();
      }),
    );
    ws.on('open', () => ws.send(JSON.stringify({ type: 'join', channel })));
    await joined;
    expect(got.filter((m) => m.type !== 'poke')).toEqual(expect.arrayContaining([{ type: 'ready' }, { type: 'joined', channel }]));
  });
});
