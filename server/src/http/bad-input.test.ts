// Bad input over every documented route: each route of /openapi.json is called by a company admin,
// an attendant and the platform's super-admin with unknown and malformed ids in its path, junk in
// each query parameter, a body that is not JSON, and, field by field of its documented body, values
// of the wrong type, at and past the limits, and ids of rows that do not exist. Every answer must be
// below 500 and, when refused, carry a catalogue code and words that say neither NaN nor undefined (the harness also checks each code against
// the route's documented ones); a write refused with every one of its bad bodies, or with every
// junk value of its query (another company's id among them), must leave the company's rows as they
// were, and the other company's too for the query; a delete must refuse each junk query. A new route
// is swept as soon as it is documented. PUT /users/{id}'s body is swept on a spare user, each
// refusal checked alone. Every multipart route also gets bad uploads (none, empty, a program, a fake
// image, a broken body…): each refusal keeps no row and no file.
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNumber, setupDesk } from '../../test/conversation.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { changedRows, companyRows, rowChanges } from '../../test/schema-facts.ts';
import { badValues, type JsonSchema } from '../../test/bad-values.ts';
import { seedConnection, seedQueue, seedSuper, seedTenant, seedUser } from '../../test/seed.ts';

const ALL_FEATURES = { useCampaigns: 1, useSchedules: 1, useInternalChat: 1, useExternalApi: 1, useKanban: 1, useOpenAi: 1, useIntegrations: 1 } as const;
// Routes that end the caller's session or reach another person's mailbox, whatever they are given.
const SKIP = new Set(['/auth/logout', '/forgetpassword/{email}', '/resetpasswords/{email}/{token}/{newPassword}', '/auth/login', '/auth/refresh_token', '/docs/{asset}']);
// Writes whose valid values would change a caller of the sweep: PUT /users/{id} names the attendant
// (a new password would end their session, another profile change their rights). Its body is swept
// on a spare user instead (the test after the sweep).
const NO_BODY_SWEEP = new Set(['PUT /users/{id}']);
// Swept after every other route, and with no check of the rows after them: what they start goes on
// in the background (a new QR code every few seconds, a dropped connection coming back), which
// would show as a change in the window of whatever route came next.
const LAST = new Set(['POST /whatsappsession/{id}', 'PUT /whatsappsession/{id}', 'DELETE /whatsappsession/{id}', 'POST /whatsappsession/{id}/pairing-code', 'POST /simulator/connections/{id}/drop']);

// What a refusal's words may not say: the parser's account of a coerced value (`received NaN`), or
// a value the server failed to name.
const LEAK = /\bNaN\b|\bundefined\b|\[object Object\]/;
const BAD_IDS = ['abc', '-1', '0', '1.5', '99999999999999999999', '2147483647', '%00'];
const BAD_QUERY = ['abc', '-1', '[', '', '1.5', '99999999999999999999', 'x'.repeat(3000)];
const MALFORMED_JSON = '{"name":';
// The one bad upload a route may take: a text file whose name has folders, where any document
// goes (kept under its last part, passwd). Every other must be refused.
const FOLDER_NAME = 'a name that climbs out';
const MAY_PASS = [FOLDER_NAME];

type Operation = { parameters?: { in: string; name: string }[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } };
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, JsonSchema> } };

describe.each(DIALECTS)('bad input over every route on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  }, 180_000);
  afterAll(async () => t.close());

  it('answers each with a catalogue code, never a 500, and a refused write changes nothing', { timeout: 600_000 }, async () => {
    const desk = await setupDesk(t, { queues: [{ name: 'Sales' }, { name: 'Support' }] });
    await t.db.updateTable('plans').set(ALL_FEATURES).where('id', '=', desk.plan.id).execute();
    const token = desk.adminSession.token;
    const customer = newNumber();
    await desk.say(customer, 'hello', { name: 'Customer' });
    const ticket = (await desk.ticketOf(customer))!;
    // One of each kind of thing, so that a route's real ids reach its body checks.
    const ids: Record<string, number> = { tickets: ticket.id, contacts: ticket.contactId, whatsapp: desk.connectionId, queue: desk.queues[0]!.id, users: desk.user.id, companies: desk.companyId };
    // What made each thing is also the valid rest of a bad body for its create route: a bad field
    // then reaches the checks behind the required ones.
    const base: Record<string, Record<string, unknown>> = {};
    const make = async (kind: string, url: string, body: Record<string, unknown>) => {
      base[`POST ${url}`] = body;
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
    // Creates made only by the sweep: the valid rest of their bad bodies.
    Object.assign(base, {
      'POST /users': { name: 'Someone New', email: `someone-${Date.now()}@example.com`, password: 'Some-pass-123', profile: 'user' },
      'POST /queue': { name: 'A third queue', color: '#123456' },
      'POST /whatsapp': { name: 'Another line', provider: 'simulator' },
      'POST /contacts': { name: 'Someone', number: newNumber() },
      'POST /messages/{ticketId}': { body: 'A reply' },
    });
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
    // Another company with rows of the kinds a companyId query could reach.
    const other = await seedTenant(t);
    await seedQueue(t, other.company.id);
    await seedConnection(t, other.company.id);
    const problems: string[] = [];
    let calls = 0;
    let bodiesSwept = 0;
    let queriesChecked = 0;
    const call = async (caller: string, method: string, url: string, body: unknown) => {
      const res = await t.request(method, url, { token: caller, body });
      calls++;
      const refusedWell = res.status < 400 || (res.status < 500 && /^ERR_[A-Z0-9_]+$/.test(String(res.body?.error)) && !LEAK.test(JSON.stringify(res.body)));
      if (!refusedWell) problems.push(`${method} ${url} ${JSON.stringify(body)?.slice(0, 120)} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      return res.status;
    };
    const resolve = (ref: string) => doc.components.schemas[ref.split('/').pop()!];
    const routes = Object.entries(doc.paths)
      .filter(([path]) => !SKIP.has(path))
      .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, M: method.toUpperCase(), op })))
      .filter((r) => ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(r.M))
      .sort((a, b) => Number(LAST.has(`${a.M} ${a.path}`)) - Number(LAST.has(`${b.M} ${b.path}`)));
    for (const { path, M, op } of routes) {
      for (const caller of [token, desk.userSession.token, superAdmin.session.token]) {
        const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
        // A delete is swept for a body only if it documents one (none does).
        const withBody = M !== 'GET' && (M !== 'DELETE' || op.requestBody !== undefined);
        for (const bad of params.length ? BAD_IDS : []) {
          // A delete of a real row is not bad input: the largest id is only asked for by the other methods.
          if (M === 'DELETE' && bad === '2147483647') continue;
          await call(caller, M, params.reduce((u, p) => u.replace(`{${p}}`, bad), path), withBody ? {} : undefined);
        }
        const url = params.reduce((u, p) => u.replace(`{${p}}`, encodeURIComponent(String(idFor(path, p)))), path);
        // Junk in each query parameter, and another company in companyId (which the super-admin may
        // name, but not for a row of this one). A write refused with every value must have changed
        // nothing in either company; a delete must refuse each, or the row its path names went.
        const queries = (op.parameters ?? []).filter((p) => p.in === 'query');
        const checkQuery = M !== 'GET' && queries.length > 0 && !LAST.has(`${M} ${path}`);
        const beforeQuery = checkQuery ? [await companyRows(t, desk.companyId), await companyRows(t, other.company.id)] : [];
        const queryStatuses: number[] = [];
        for (const q of queries) {
          for (const v of q.name === 'companyId' ? [...BAD_QUERY, String(other.company.id)] : BAD_QUERY) {
            const status = await call(caller, M, `${url}${url.includes('?') ? '&' : '?'}${q.name}=${encodeURIComponent(v)}`, undefined);
            if (M === 'DELETE' && status < 400) problems.push(`${M} ${url} took ${q.name}=${v.slice(0, 20)}: ${status}`);
            queryStatuses.push(status);
          }
        }
        if (checkQuery && queryStatuses.every((s) => s >= 400)) {
          queriesChecked++;
          const after = [await companyRows(t, desk.companyId), await companyRows(t, other.company.id)];
          after.forEach((rows, i) => {
            for (const change of rowChanges(beforeQuery[i]!, rows)) problems.push(`${M} ${path}: refused every junk query, yet ${i ? "the other company's " : ''}${change}`);
          });
        }
        if (!withBody) continue;
        // Field by field: a write refused with every bad body must have changed nothing.
        const before = await companyRows(t, desk.companyId);
        const statuses = [await call(caller, M, url, MALFORMED_JSON)];
        const fields = op.requestBody?.content?.['application/json']?.schema?.properties;
        if (fields && caller === token && !NO_BODY_SWEEP.has(`${M} ${path}`)) {
          bodiesSwept++;
          for (const [field, schema] of Object.entries(fields)) {
            for (const v of badValues(schema, resolve)) statuses.push(await call(caller, M, url, { ...base[`${M} ${path}`], [field]: v }));
          }
        }
        if (statuses.every((s) => s >= 400) && !LAST.has(`${M} ${path}`)) {
          await t.deps.outbox.idle();
          const after = await companyRows(t, desk.companyId);
          for (const change of rowChanges(before, after)) problems.push(`${M} ${path}: refused every bad body, yet ${change}`);
        }
      }
    }
    expect(problems).toEqual([]);
    // The sweep has substance: thousands of calls, the body of most writes taken apart.
    expect(calls).toBeGreaterThan(10_000);
    expect(bodiesSwept).toBeGreaterThan(60);
    // The writes that read a query (DELETE /users, /queue and /whatsapp, PUT /users…), by each caller.
    expect(queriesChecked).toBeGreaterThanOrEqual(12);
  });

  it('sweeps the body of PUT /users/{id} on a spare user, keeping the rows of every refusal, and refuses any change of another company’s user', { timeout: 120_000 }, async () => {
    const desk = await setupDesk(t, { queues: [{ name: 'Sales' }] });
    const other = await seedTenant(t);
    const [otherQueue, otherConnection] = [await seedQueue(t, other.company.id), await seedConnection(t, other.company.id)];
    const spare = await seedUser(t, desk.companyId, { profile: 'user' });
    const token = desk.adminSession.token;
    const doc = (await t.request('GET', '/openapi.json')).body as Doc;
    const fields = doc.paths['/users/{id}']!.put!.requestBody?.content?.['application/json']?.schema?.properties ?? {};
    const problems: string[] = [];
    let calls = 0;
    let refusals = 0;
    // The company's rows after each call, the other company's at the start: a refusal changes neither.
    let rows = await companyRows(t, desk.companyId);
    const otherRows = await companyRows(t, other.company.id);
    /** One change of a user: below 500 with a catalogue code; a refusal keeps the company's rows. */
    const put = async (url: string, body: unknown, as = token) => {
      const res = await t.request('PUT', url, { token: as, body });
      calls++;
      const what = `PUT ${url} ${JSON.stringify(body)?.slice(0, 120)} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
      if (res.status >= 500 || (res.status >= 400 && !/^ERR_[A-Z0-9_]+$/.test(String(res.body?.error)))) problems.push(what);
      const now = await companyRows(t, desk.companyId);
      if (res.status >= 400) {
        refusals++;
        for (const change of rowChanges(rows, now)) problems.push(`${what}: refused, yet ${change}`);
      }
      rows = now;
      return res;
    };
    // Field by field, the schema's bad values, on a user nobody in the sweep signs in as.
    for (const [field, schema] of Object.entries(fields)) {
      for (const v of badValues(schema, (ref) => doc.components.schemas[ref.split('/').pop()!])) await put(`/users/${spare.id}`, { [field]: v });
    }
    expect(problems).toEqual([]);
    expect(Object.keys(fields).length).toBeGreaterThanOrEqual(9);
    expect(refusals).toBeGreaterThan(100);

    // Another company's user, named by id alone or with its company, by the admin or an attendant (or
    // by the super-admin under the wrong company); and the spare user linked to another company's queue
    // or connection: each refused with its code.
    const superAdmin = await seedSuper(t);
    const change = { name: 'Taken Over', email: `taken-${Date.now()}@example.com`, password: 'Other-pass-123', profile: 'admin', allTicket: 'enabled', showNoQueue: true, language: 'es', queueIds: [], whatsappId: null };
    const refusedAs: [string, unknown, string, string?][] = [
      [`/users/${other.user.id}`, change, 'ERR_NO_USER_FOUND'],
      [`/users/${other.admin.id}`, { password: change.password }, 'ERR_NO_USER_FOUND'],
      [`/users/${other.user.id}?companyId=${other.company.id}`, change, 'ERR_NO_COMPANY_FOUND'],
      [`/users/${other.user.id}`, { ...change, companyId: other.company.id }, 'ERR_NO_COMPANY_FOUND'],
      [`/users/${other.user.id}`, change, 'ERR_NO_PERMISSION', desk.userSession.token],
      [`/users/${other.user.id}?companyId=${desk.companyId}`, change, 'ERR_NO_USER_FOUND', superAdmin.session.token],
      [`/users/${spare.id}`, { queueIds: [otherQueue.id] }, 'ERR_VALIDATION'],
      [`/users/${spare.id}`, { whatsappId: otherConnection.id }, 'ERR_VALIDATION'],
    ];
    for (const [url, body, code, as] of refusedAs) expect((await put(url, body, as)).body.error, url).toBe(code);
    expect(problems).toEqual([]);
    expect(await companyRows(t, other.company.id)).toEqual(otherRows);
    // The other company's user still signs in with their own password.
    expect((await t.request('POST', '/auth/login', { body: { email: other.user.email, password: other.user.password } })).status).toBe(200);
    // And the spare user did change: what the sweep took was the route working, not refusing everything.
    expect(calls - refusals).toBeGreaterThan(10);
  });

  it('refuses bad uploads on every multipart route with a catalogue code, keeping no row and no file of them', { timeout: 300_000 }, async () => {
    const desk = await setupDesk(t);
    await t.db.updateTable('plans').set(ALL_FEATURES).where('id', '=', desk.plan.id).execute();
    const token = desk.adminSession.token;
    const customer = newNumber();
    await desk.say(customer, 'hello');
    const ticket = (await desk.ticketOf(customer))!;
    await t.request('PUT', `/tickets/${ticket.id}`, { token, body: { status: 'open' } });
    const made = async (url: string, body: unknown, as = token) => {
      const res = await t.request('POST', url, { token: as, body });
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      return res.body.id as number;
    };
    const superAdmin = await seedSuper(t);
    const ids: Record<string, number> = {
      'quick-messages': await made('/quick-messages', { shortcode: 'up', message: 'Upload here' }),
      schedules: await made('/schedules', { body: 'A scheduled message', sendAt: new Date(Date.now() + 86_400_000).toISOString(), contactId: ticket.contactId }),
      campaigns: await made('/campaigns', { name: 'Upload campaign', message1: 'Hello' }),
      announcements: await made('/announcements', { title: 'News', text: 'Something new', priority: 1, status: true }, superAdmin.session.token),
    };
    await t.deps.outbox.idle();
    const doc = (await t.request('GET', '/openapi.json')).body as Doc;
    const routes = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, op]) => {
        const schema = op.requestBody?.content?.['multipart/form-data']?.schema;
        return schema ? [{ path, M: method.toUpperCase(), schema }] : [];
      }),
    );
    const urlOf = (path: string) => path.replace('{ticketId}', String(ticket.id)).replace('{id}', String(ids[path.split('/')[1]!] ?? 0));
    const isFile = (s: JsonSchema & { contentMediaType?: string }) => s.contentMediaType !== undefined || (s.items as { contentMediaType?: string } | undefined)?.contentMediaType !== undefined;
    /** Every file under the media folder: a refused upload leaves none behind. */
    const mediaFiles = () => readdirSync(t.deps.config.mediaDir, { recursive: true }).map(String).sort().join('\n');
    const settledRows = async () => {
      await t.deps.outbox.idle();
      let last = await companyRows(t, desk.companyId);
      for (let i = 0; i < 30; i++) {
        await new Promise((r) => setTimeout(r, 100));
        const now = await companyRows(t, desk.companyId);
        if (JSON.stringify(now) === JSON.stringify(last)) return now;
        last = now;
      }
      throw new Error('the company rows kept changing for 3 s after an accepted upload');
    };
    const problems: string[] = [];
    let calls = 0;
    let refusals = 0;
    let accepted = false;
    for (const { path, M, schema } of routes) {
      const url = urlOf(path);
      const fields = Object.entries(schema.properties ?? {});
      const fileField = fields.find(([, f]) => isFile(f))?.[0] ?? 'file';
      // The route's text fields, valid enough (the number of the external API's send), beside each bad file.
      const text: Record<string, string> = path === '/api/messages/send' ? { number: customer } : {};
      const form = (parts: [string, string | Blob, string?][]) => {
        const f = new FormData();
        for (const [k, v] of Object.entries(text)) f.append(k, v);
        for (const [name, value, fileName] of parts) {
          if (fileName) f.append(name, value as Blob, fileName);
          else f.append(name, value as string);
        }
        return f;
      };
      const bodies: [string, FormData | string, Record<string, string>?][] = [
        ['no part', form([])],
        ['an empty file', form([[fileField, new Blob([]), 'empty.png']])],
        ['a program named as one', form([[fileField, new Blob([new Uint8Array([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0])], { type: 'application/x-msdownload' }), 'setup.exe']])],
        ['an image that is not one', form([[fileField, new Blob(['not a picture'], { type: 'image/png' }), 'photo.png']])],
        ['the file as text', form([[fileField, 'just some text']])],
        [FOLDER_NAME, form([[fileField, new Blob(['x'], { type: 'text/plain' }), '../../../etc/passwd']])],
        ['a broken multipart body', '--nope\r\nContent-Disposition: form-data; name="file"\r\n\r\nx', { 'content-type': 'multipart/form-data; boundary=other' }],
        ['JSON', JSON.stringify({ [fileField]: 'x' }), { 'content-type': 'application/json' }],
      ];
      for (const [what, body, headers] of bodies) {
        // After an accepted upload its message goes on changing (sent, then the simulated phone's
        // acks): the rows are read once they have stopped moving.
        const before = [accepted ? await settledRows() : await companyRows(t, desk.companyId), mediaFiles()] as const;
        accepted = false;
        // The external API takes the connection's token; announcements are the super-admin's.
        const bearer = path === '/api/messages/send' ? desk.connection.token : path.startsWith('/announcements') ? superAdmin.session.token : token;
        // Through the harness: each answer is checked against the route's documented codes too.
        const res = await t.request(M, url, { token: bearer ?? undefined, headers, body });
        calls++;
        const answer = res.body as { error?: string } | undefined;
        if (res.status >= 500 || (res.status >= 400 && !/^ERR_[A-Z0-9_]+$/.test(String(answer?.error)))) problems.push(`${M} ${url} with ${what} → ${res.status} ${JSON.stringify(answer).slice(0, 200)}`);
        if (res.status < 400) {
          if (!MAY_PASS.includes(what)) problems.push(`${M} ${url} took ${what}: ${res.status}`);
          accepted = true;
          continue;
        }
        refusals++;
        await t.deps.outbox.idle();
        const after = [await companyRows(t, desk.companyId), mediaFiles()] as const;
        for (const change of rowChanges(before[0], after[0])) problems.push(`${M} ${path} refused ${what}, yet ${change}`);
        if (after[1] !== before[1]) problems.push(`${M} ${path} refused ${what}, yet files were left: ${changedRows(before[1], after[1])}`);
      }
    }
    expect(problems).toEqual([]);
    expect(routes.length).toBeGreaterThanOrEqual(10);
    expect(calls).toBe(routes.length * 8);
    expect(refusals).toBeGreaterThan(routes.length * 6);
  });
});
