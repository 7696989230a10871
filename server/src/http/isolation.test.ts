// Tenant isolation over every documented route (DESIGN §3): company B fills its account with one of
// each kind of thing, each carrying a marker; then company A's admin, and an attendant of A, call
// every route of /openapi.json that takes an id in its path or query, with each of B's ids of that
// kind (and the ticket's uuid, the settings' keys…), with a plausible body, and writes with B's ids
// in their bodies. Nothing A gets back may carry B's marker, and not one of
// B's rows may have changed: B's rows are read straight from every table with a company_id, before
// and after, and no row of any company may reference another company's row. A new route is swept
// as soon as it is documented.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { newNumber, setupDesk } from '../../test/conversation.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { companyRows, companyTables, foreignKeys } from '../../test/schema-facts.ts';
import { seedConnection, seedTenant, seedTicket } from '../../test/seed.ts';
import { tenant } from '../db/tenant.ts';
import { bumpVersion } from '../sync/version.ts';

const MARK = 'BETA-SECRET';
const ALL_FEATURES = { useCampaigns: 1, useSchedules: 1, useInternalChat: 1, useExternalApi: 1, useKanban: 1, useOpenAi: 1, useIntegrations: 1 } as const;
// Routes that end the caller's session or reach another person's mailbox, whatever the id.
const SKIP = new Set(['/auth/logout', '/forgetpassword/{email}', '/resetpasswords/{email}/{token}/{newPassword}', '/auth/login', '/auth/refresh_token', '/docs/{asset}']);

/** What A sends to a route (`{}` where nothing better is known): valid enough to reach the id check. */
const BODY: Record<string, unknown> = {
  'PUT /tickets/{id}': { status: 'open' },
  'POST /messages/{ticketId}': { body: 'ALPHA message' },
  'PUT /contacts/{id}': { name: 'ALPHA contact' },
  'PUT /queue/{id}': { name: 'ALPHA queue', color: '#111111' },
  'PUT /queue-options/{id}': { title: 'ALPHA option' },
  'PUT /users/{id}': { name: 'ALPHA user' },
  'PUT /tags/{id}': { name: 'ALPHA tag' },
  'PUT /whatsapp/{id}': { name: 'ALPHA line' },
  'PUT /quick-messages/{id}': { shortcode: 'alpha', message: 'ALPHA quick' },
  'PUT /schedules/{id}': { body: 'ALPHA schedule' },
  'PUT /campaigns/{id}': { name: 'ALPHA campaign' },
  'PUT /contact-lists/{id}': { name: 'ALPHA list' },
  'PUT /contact-list-items/{id}': { name: 'ALPHA item' },
  'PUT /files/{id}': { name: 'ALPHA files', message: 'ALPHA' },
  'PUT /prompt/{id}': { name: 'ALPHA prompt' },
  'PUT /webhooks/{id}': { name: 'ALPHA hook' },
  'PUT /queueIntegration/{id}': { name: 'ALPHA integration' },
  'PUT /chats/{id}': { title: 'ALPHA chat' },
  'POST /chats/{id}/messages': { message: 'ALPHA chat message' },
  'PUT /companies/{id}': { name: 'ALPHA company' },
  'POST /simulator/connections/{id}/messages': { messages: [{ from: '5511900001111', name: 'ALPHA', body: 'ALPHA' }] },
  'POST /simulator/connections/{id}/scan': { number: '5511900009999' },
};

describe.each(DIALECTS)('tenant isolation over every route on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  }, 180_000);
  afterAll(async () => t.close());

  /** Rows that reference a row of another company (through any foreign key between two companies' tables). */
  async function crossCompanyReferences(): Promise<string[]> {
    const owned = new Set(await companyTables(t));
    const found: string[] = [];
    for (const key of await foreignKeys(t)) {
      if (key.columns.length !== 1 || !owned.has(key.table) || !owned.has(key.references)) continue;
      const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(key.table)} c JOIN ${sql.table(key.references)} p ON p.id = c.${sql.ref(key.columns[0]!)} WHERE c.company_id <> p.company_id`.execute(t.db);
      if (Number(rows[0]!.n) > 0) found.push(`${key.table}.${key.columns[0]} → ${key.references}: ${rows[0]!.n}`);
    }
    return found;
  }

  it("answers company A's admin nothing of company B's and changes none of B's rows, whatever id A names", { timeout: 300_000 }, async () => {
    // B: a desk with a customer's conversation, and one of each kind of thing, marked.
    const b = await setupDesk(t, { queues: [{ name: `${MARK} queue` }] });
    await t.db.updateTable('plans').set(ALL_FEATURES).where('id', '=', b.plan.id).execute();
    const token = b.adminSession.token;
    const customer = newNumber();
    await b.say(customer, `${MARK} hello`, { name: `${MARK} customer` });
    const ticket = (await b.ticketOf(customer))!;
    const ids: Record<string, number[]> = { tickets: [ticket.id], contacts: [ticket.contactId], whatsapp: [b.connectionId], queue: b.queues.map((q) => q.id), users: [b.admin.id, b.user.id], companies: [b.companyId] };
    const made: string[] = [];
    const make = async (kind: string, url: string, body: unknown) => {
      const res = await t.request('POST', url, { token, body });
      if (res.status < 300 && typeof res.body?.id === 'number') {
        (ids[kind] ??= []).push(res.body.id);
        made.push(kind);
      }
      return res.body as { id: number };
    };
    const tag = await make('tags', '/tags', { name: `${MARK} tag` });
    await t.request('PUT', `/ticket-tags/${ticket.id}/${tag.id}`, { token });
    await make('contacts', '/contacts', { name: `${MARK} contact`, number: newNumber() });
    await make('queue-options', '/queue-options', { queueId: b.queues[0]!.id, title: `${MARK} option` });
    await make('quick-messages', '/quick-messages', { shortcode: 'beta', message: `${MARK} quick` });
    await make('ticket-notes', '/ticket-notes', { ticketId: ticket.id, contactId: ticket.contactId, note: `${MARK} note` });
    await make('schedules', '/schedules', { body: `${MARK} schedule`, sendAt: new Date(Date.now() + 86_400_000).toISOString(), contactId: ticket.contactId });
    const list = await make('contact-lists', '/contact-lists', { name: `${MARK} list` });
    await make('contact-list-items', '/contact-list-items', { contactListId: list.id, name: `${MARK} item`, number: newNumber() });
    await make('files', '/files', { name: `${MARK} files`, message: MARK, options: [] });
    await make('campaigns', '/campaigns', { name: `${MARK} campaign`, message1: MARK });
    const flow = await make('flowbuilder', '/flowbuilder', { name: `${MARK} flow` });
    await make('flowcampaign', '/flowcampaign', { name: `${MARK} phrase`, flowId: flow.id, whatsappId: b.connectionId, phrase: 'beta' });
    await make('prompt', '/prompt', { name: `${MARK} prompt`, prompt: `${MARK}: you help the customers of this shop kindly.`, apiKey: 'sk-beta-0000000000000000', queueId: b.queues[0]!.id, maxTokens: 100 });
    await make('webhooks', '/webhooks', { name: `${MARK} hook`, url: 'https://example.com/hook', events: ['message.received'] });
    await make('chats', '/chats', { title: `${MARK} chat`, users: [{ id: b.user.id }] });
    await make('users', '/users', { name: `${MARK} user`, email: `beta-${Date.now()}@example.com`, password: 'Beta-pass-123', profile: 'user' });
    // The sweep has substance: most kinds were made (a body this test got wrong only narrows it).
    expect(made.length, made.join(', ')).toBeGreaterThanOrEqual(12);
    await t.deps.outbox.idle();

    // A: another company's admin, with a plan of every feature.
    const a = await seedTenant(t, ALL_FEATURES);
    const before = await companyRows(t, b.companyId);

    const doc = (await t.request('GET', '/openapi.json')).body as { paths: Record<string, Record<string, { parameters?: { in: string; name: string }[] }>> };
    // Query parameters that name a row: each is given B's rows of that kind.
    const byQuery: Record<string, (number | string)[]> = {
      companyId: [b.companyId],
      ticketId: ids.tickets!,
      contactId: ids.contacts!,
      whatsappId: [b.connectionId],
      connectionId: [b.connectionId],
      session: [b.connectionId],
      queueId: ids.queue!,
      queueIds: [JSON.stringify(ids.queue), ids.queue!.join(',')],
      userId: ids.users!,
      users: [JSON.stringify(ids.users)],
      tags: [JSON.stringify(ids.tags ?? [])],
      contactListId: ids['contact-lists'] ?? [],
      parentId: ids['queue-options'] ?? [],
      searchParam: [MARK],
    };
    const kindOf = (path: string, param: string): number[] | string[] => {
      if (param === 'uuid') return [ticket.uuid];
      if (param === 'ticketId') return ids.tickets!;
      if (param === 'tagId') return ids.tags ?? [];
      if (param === 'companyId') return [b.companyId];
      if (param === 'key') return ['userRating', 'scheduleType'];
      if (param !== 'id') return ['x', String(b.companyId)];
      const first = path.split('/')[1]!;
      const kind = first === 'whatsappsession' || first === 'simulator' ? 'whatsapp' : first;
      return ids[kind] ?? [];
    };
    let calls = 0;
    const leaks: string[] = [];
    // The admin first, then an attendant (another scope, the same company walls).
    for (const caller of [a.adminSession.token, a.userSession.token]) {
      for (const [path, item] of Object.entries(doc.paths)) {
        if (SKIP.has(path)) continue;
        for (const method of Object.keys(item).filter((m) => ['get', 'post', 'put', 'delete', 'patch'].includes(m))) {
          const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
          const queries = method === 'get' ? (item[method]!.parameters ?? []).filter((q) => q.in === 'query' && byQuery[q.name]) : [];
          // Routes without an id in their path are swept only for the ids their query names.
          if (params.length === 0 && queries.length === 0) continue;
          // Every combination of the parameters' values (one parameter has several at most).
          let urls = [path];
          for (const p of params) urls = urls.flatMap((u) => kindOf(path, p).map((v) => u.replace(`{${p}}`, encodeURIComponent(String(v)))));
          urls = urls.flatMap((u) => [u, ...queries.flatMap((q) => byQuery[q.name]!.map((v) => `${u}?${q.name}=${encodeURIComponent(String(v))}`))]);
          for (const url of urls) {
            const key = `${method.toUpperCase()} ${path}`;
            const body = method === 'get' || method === 'delete' ? undefined : (BODY[key] ?? {});
            const res = await t.request(method.toUpperCase(), url, { token: caller, body });
            calls++;
            expect(res.status, `${key} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
            if (res.status < 300 && JSON.stringify(res.body ?? '').includes(MARK)) leaks.push(`${method.toUpperCase()} ${url}: ${JSON.stringify(res.body).slice(0, 300)}`);
          }
        }
      }
    }
    // B's ids inside the bodies of A's writes: refused, or at least never linked to A's rows.
    const line = await seedConnection(t, a.company.id);
    const mine = await seedTicket(t, a.company.id);
    await tenant(t.db, a.company.id).updateTable('tickets').set({ whatsappId: line.id, ...bumpVersion() }).where('tickets.id', '=', mine.id).execute();
    const theirMessage = await tenant(t.db, b.companyId).selectFrom('messages').select('messages.id').where('messages.ticketId', '=', ticket.id).executeTakeFirstOrThrow();
    const first = (kind: string) => ids[kind]?.[0] ?? 0;
    const writes: [string, string, unknown][] = [
      ['POST', '/tickets', { contactId: ticket.contactId, status: 'open', whatsappId: b.connectionId, queueId: first('queue') }],
      ['PUT', `/tickets/${mine.id}`, { queueId: first('queue'), userId: b.user.id, whatsappId: b.connectionId }],
      ['PUT', `/ticket-tags/${mine.id}/${first('tags')}`, undefined],
      ['POST', '/tags/sync', { ticketId: mine.id, tags: (ids.tags ?? []).map((id) => ({ id })) }],
      ['POST', `/messages/${mine.id}`, { body: 'ALPHA', quotedMsg: { id: theirMessage.id } }],
      ['POST', '/schedules', { body: 'ALPHA', sendAt: new Date(Date.now() + 86_400_000).toISOString(), contactId: ticket.contactId }],
      ['POST', '/ticket-notes', { ticketId: ticket.id, contactId: ticket.contactId, note: 'ALPHA' }],
      ['POST', '/ticket-notes', { ticketId: mine.id, contactId: ticket.contactId, note: 'ALPHA' }],
      ['POST', '/contact-list-items', { contactListId: first('contact-lists'), name: 'ALPHA item', number: newNumber() }],
      ['POST', '/queue-options', { queueId: first('queue'), title: 'ALPHA option' }],
      ['POST', '/flowcampaign', { name: 'ALPHA phrase', flowId: first('flowbuilder'), whatsappId: b.connectionId, phrase: 'alpha' }],
      ['POST', '/campaigns', { name: 'ALPHA campaign', whatsappId: b.connectionId, contactListId: first('contact-lists'), tagListId: first('tags'), fileListId: first('files') }],
      ['POST', '/chats', { title: 'ALPHA chat', users: [{ id: b.user.id }] }],
      ['POST', '/users', { name: 'ALPHA user', email: `alpha-${Date.now()}@example.com`, password: 'Alpha-pass-123', profile: 'user', queueIds: ids.queue }],
      ['POST', '/whatsapp', { name: 'ALPHA line', provider: 'simulator', queueIds: ids.queue }],
      ['POST', '/prompt', { name: 'ALPHA prompt', prompt: 'ALPHA: you help the customers of this shop kindly.', apiKey: 'sk-alpha-000000000000000', queueId: first('queue'), maxTokens: 100 }],
      ['POST', '/campaign-settings', { settings: { doNotContactTagId: first('tags') } }],
    ];
    for (const [method, url, body] of writes) {
      const res = await t.request(method, url, { token: a.adminSession.token, body });
      calls++;
      expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
      if (res.status < 300 && JSON.stringify(res.body ?? '').includes(MARK)) leaks.push(`${method} ${url}: ${JSON.stringify(res.body).slice(0, 300)}`);
    }
    expect(leaks).toEqual([]);
    expect(calls).toBeGreaterThan(300);
    expect(await crossCompanyReferences()).toEqual([]);
    await t.deps.outbox.idle();
    const after = await companyRows(t, b.companyId);
    for (const table of new Set([...Object.keys(before), ...Object.keys(after)])) expect(after[table], `${table} of company B`).toEqual(before[table]);
  });
});
