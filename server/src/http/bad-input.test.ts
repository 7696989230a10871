// Bad input over every documented route: each route of /openapi.json is called by a company admin,
// an attendant and the platform's super-admin with unknown and malformed ids in its path, junk in
// each query parameter, a body that is not JSON, and, field by field of its documented body, values
// of the wrong type, at and past the limits, and ids of rows that do not exist. Every answer must be
// below 500 and, when refused, carry a catalogue code (the harness also checks each code against
// the route's documented ones); a write refused with every one of its bad bodies must leave the
// company's rows as they were. A new route is swept as soon as it is documented.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNumber, setupDesk } from '../../test/conversation.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { companyTables } from '../../test/schema-facts.ts';
import { seedSuper } from '../../test/seed.ts';

const ALL_FEATURES = { useCampaigns: 1, useSchedules: 1, useInternalChat: 1, useExternalApi: 1, useKanban: 1, useOpenAi: 1, useIntegrations: 1 } as const;
// Routes that end the caller's session or reach another person's mailbox, whatever they are given.
const SKIP = new Set(['/auth/logout', '/forgetpassword/{email}', '/resetpasswords/{email}/{token}/{newPassword}', '/auth/login', '/auth/refresh_token', '/docs/{asset}']);
// Writes whose valid-looking values would change the caller themselves (a new password, a lower profile).
const NO_BODY_SWEEP = new Set(['PUT /users/{id}']);

const BAD_IDS = ['abc', '-1', '0', '1.5', '99999999999999999999', '2147483647', '%00'];
const BAD_QUERY = ['abc', '-1', '[', '', '1.5', '99999999999999999999', 'x'.repeat(3000)];
const MALFORMED_JSON = '{"name":';

type Schema = { $ref?: string; type?: string | string[]; anyOf?: Schema[]; enum?: unknown[]; items?: Schema; properties?: Record<string, Schema>; maximum?: number; minimum?: number; maxLength?: number; minLength?: number };
type Operation = { parameters?: { in: string; name: string }[]; requestBody?: { content?: Record<string, { schema?: Schema }> } };
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };

/** Values for one body field: its own kinds at and past their limits, then other types. */
function badValues(doc: Doc, schema: Schema | undefined): unknown[] {
  const s = schema?.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : schema;
  if (!s) return [];
  if (s.anyOf) return s.anyOf.flatMap((alt) => badValues(doc, alt));
  const out: unknown[] = [...(s.enum ?? [])];
  for (const type of Array.isArray(s.type) ? s.type : [s.type]) {
    if (type === 'integer' || type === 'number') out.push(s.maximum ?? 2147483647, (s.maximum ?? 2147483647) + 1, s.minimum ?? 0, -1, 0, 1.5, 1e308);
    if (type === 'string') out.push('', 'x'.repeat((s.maxLength ?? 5000) + 1), 'x'.repeat(s.maxLength ?? 5000), '2026-13-45T99:99:99Z', '../../etc/passwd', 'é€😀', '1');
    if (type === 'boolean') out.push(true, false);
    if (type === 'array') out.push([], [null], ['x'], [{}], ...badValues(doc, s.items).slice(0, 4).map((v) => [v]));
    if (type === 'object') out.push({}, []);
  }
  return [...out, 'wrong', 12345, true, null, [], {}];
}

describe.each(DIALECTS)('bad input over every route on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  }, 180_000);
  afterAll(async () => t.close());

  /** Every row of one company, per table, as text: what a refused write must leave as it was. */
  async function rowsOf(companyId: number): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    for (const table of await companyTables(t)) {
      const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)} WHERE company_id = ${companyId}`.execute(t.db);
      if (rows.length) out[table] = rows.map((r) => JSON.stringify(r)).sort().join('\n');
    }
    return out;
  }

  it('answers each with a catalogue code, never a 500, and a refused write changes nothing', { timeout: 600_000 }, async () => {
    const desk = await setupDesk(t, { queues: [{ name: 'Sales' }, { name: 'Support' }] });
    await t.db.updateTable('plans').set(ALL_FEATURES).where('id', '=', desk.plan.id).execute();
    const token = desk.adminSession.token;
    const customer = newNumber();
    await desk.say(customer, 'hello', { name: 'Customer' });
    const ticket = (await desk.ticketOf(customer))!;
    // One of each kind of thing, so that a route's real ids reach its body checks.
    const ids: Record<string, number> = { tickets: ticket.id, contacts: ticket.contactId, whatsapp: desk.connectionId, queue: desk.queues[0]!.id, users: desk.user.id, companies: desk.companyId };
    const make = async (kind: string, url: string, body: unknown) => {
      const res = await t.request('POST', url, { token, body });
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      ids[kind] = res.body.id as number;
      return ids[kind]!;
    };
    await make('tags', '/tags', { name: 'A tag' });
    await make('queue-options', '/queue-options', { queueId: desk.queues[0]!.id, title: 'An option' });
    await make('quick-messages', '/quick-messages', { shortcode: 'hi', message: 'Hello!' });
    await make('ticket-notes', '/ticket-notes', { ticketId: ticket.id, contactId: ticket.contactId, note: 'A note' });
    await make('schedules', '/schedules', { body: 'A scheduled message', sendAt: new Date(Date.now() + 86_400_000).toISOString(), contactId: ticket.contactId });
    const list = await make('contact-lists', '/contact-lists', { name: 'A list' });
    await make('contact-list-items', '/contact-list-items', { contactListId: list, name: 'An item', number: newNumber() });
    await make('files', '/files', { name: 'Some files', message: 'Files', options: [] });
    await make('campaigns', '/campaigns', { name: 'A campaign', message1: 'Hello' });
    const flow = await make('flowbuilder', '/flowbuilder', { name: 'A flow' });
    await make('flowcampaign', '/flowcampaign', { name: 'A phrase', flowId: flow, whatsappId: desk.connectionId, phrase: 'hello there' });
    await make('prompt', '/prompt', { name: 'A prompt', prompt: 'You help the customers of this shop kindly, answering about orders and deliveries.', apiKey: 'sk-test-0000000000000000', queueId: desk.queues[0]!.id, maxTokens: 100 });
    await make('queueIntegration', '/queueIntegration', { type: 'webhook', name: 'An integration', urlN8N: 'https://example.com/hook' });
    await make('webhooks', '/webhooks', { name: 'A hook', url: 'https://example.com/hook', events: ['message.received'] });
    await make('chats', '/chats', { title: 'A chat', users: [{ id: desk.user.id }] });
    // Quiet from here: the webhook's deliveries (to an address that never answers) would otherwise
    // be retried in the background, changing rows while a refused write is being checked.
    await t.deps.webhooks.stop();
    await t.deps.outbox.idle();
    const idFor = (path: string, param: string): string | number => {
      if (param === 'uuid') return ticket.uuid;
      if (param === 'ticketId') return ticket.id;
      if (param === 'tagId') return ids.tags!;
      if (param === 'companyId') return desk.companyId;
      if (param === 'key') return 'userRating';
      const kind = path.split('/')[1]!;
      return ids[kind === 'whatsappsession' || kind === 'simulator' ? 'whatsapp' : kind] ?? 1;
    };

    const doc = (await t.request('GET', '/openapi.json')).body as Doc;
    const superAdmin = await seedSuper(t);
    const problems: string[] = [];
    let calls = 0;
    let bodiesSwept = 0;
    for (const caller of [token, desk.userSession.token, superAdmin.session.token]) {
      const call = async (method: string, url: string, body: unknown) => {
        const res = await t.request(method, url, { token: caller, body });
        calls++;
        const refusedWell = res.status < 400 || (res.status < 500 && /^ERR_[A-Z0-9_]+$/.test(String(res.body?.error)));
        if (!refusedWell) problems.push(`${method} ${url} ${JSON.stringify(body)?.slice(0, 120)} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        return res.status;
      };
      for (const [path, item] of Object.entries(doc.paths)) {
        if (SKIP.has(path)) continue;
        for (const [method, op] of Object.entries(item)) {
          const M = method.toUpperCase();
          if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(M)) continue;
          const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
          const withBody = M !== 'GET' && M !== 'DELETE';
          for (const bad of params.length ? BAD_IDS : []) {
            // A delete of a real row is not bad input: the largest id is only asked for by the other methods.
            if (M === 'DELETE' && bad === '2147483647') continue;
            await call(M, params.reduce((u, p) => u.replace(`{${p}}`, bad), path), withBody ? {} : undefined);
          }
          const url = params.reduce((u, p) => u.replace(`{${p}}`, encodeURIComponent(String(idFor(path, p)))), path);
          for (const q of (op.parameters ?? []).filter((p) => p.in === 'query')) {
            for (const v of BAD_QUERY) await call(M, `${url}${url.includes('?') ? '&' : '?'}${q.name}=${encodeURIComponent(v)}`, undefined);
          }
          if (!withBody) continue;
          // Field by field: a write refused with every bad body must have changed nothing.
          const before = await rowsOf(desk.companyId);
          const statuses = [await call(M, url, MALFORMED_JSON)];
          const fields = op.requestBody?.content?.['application/json']?.schema?.properties;
          if (fields && caller === token && !NO_BODY_SWEEP.has(`${M} ${path}`)) {
            bodiesSwept++;
            for (const [field, schema] of Object.entries(fields)) for (const v of badValues(doc, schema)) statuses.push(await call(M, url, { [field]: v }));
          }
          if (statuses.every((s) => s >= 400)) {
            await t.deps.outbox.idle();
            const after = await rowsOf(desk.companyId);
            for (const table of new Set([...Object.keys(before), ...Object.keys(after)])) {
              if (after[table] !== before[table]) problems.push(`${M} ${path}: refused every bad body, yet ${table} changed`);
            }
          }
        }
      }
    }
    expect(problems).toEqual([]);
    // The sweep has substance: thousands of calls, the body of most writes taken apart.
    expect(calls).toBeGreaterThan(10_000);
    expect(bodiesSwept).toBeGreaterThan(60);
  });
});
