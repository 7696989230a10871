// Bad input through POST /sync/push, as the REST sweep does it over the routes (http/bad-input.test.ts):
// every mutator is pushed, field by field of its shared arguments schema, with values of the wrong
// type, at and past their limits, and ids of rows that do not exist, the other fields valid. Each
// such mutation is marked processed with a catalogue code of its own (never ERR_INTERNAL_SERVER_ERROR,
// the code of a failure nobody checked) and leaves the company's business rows as they were; pushes
// that break the protocol itself are refused with a catalogue code.
import { mutatorArgs, type MutatorName } from '@zapdesk/sync/mutators';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badValues, type JsonSchema } from '../../test/bad-values.ts';
import { newNumber, setupDesk } from '../../test/conversation.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { tenant } from '../db/tenant.ts';

describe.each(DIALECTS)('bad mutations on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  it('marks each processed with a catalogue code and changes nothing; a push that breaks the protocol is refused', { timeout: 300_000 }, async () => {
    const desk = await setupDesk(t, { queues: [{ name: 'Sales' }, { name: 'Support' }] });
    const token = desk.adminSession.token;
    const customer = newNumber();
    await desk.say(customer, 'hello');
    const ticket = (await desk.ticketOf(customer))!;
    const message = await tenant(t.db, desk.companyId).selectFrom('messages').select('messages.id').where('messages.ticketId', '=', ticket.id).executeTakeFirstOrThrow();
    await t.deps.outbox.idle();
    const me = desk.admin.id;
    // Valid arguments of each mutator: a bad field goes with these, so it reaches the checks behind the others.
    const valid: { [N in MutatorName]: z.input<(typeof mutatorArgs)[N]> } = {
      updateSetting: { key: 'userRating', value: 'enabled' },
      setMyLanguage: { userId: me, language: 'en' },
      updateMyName: { userId: me, name: 'Ana Admin' },
      acceptTicket: { ticketId: ticket.id, userId: me },
      sendMessage: { ticketId: ticket.id, localId: 'local-0001', body: 'Hello', signMessage: false, userId: me, sentAt: new Date().toISOString() },
      markTicketRead: { ticketId: ticket.id },
      resendMessage: { ticketId: ticket.id, messageId: message.id },
      resolveTicket: { ticketId: ticket.id, userId: me, farewell: false },
      returnTicket: { ticketId: ticket.id },
      transferTicket: { ticketId: ticket.id, queueId: desk.queues[1]!.id, userId: null, whatsappId: null },
    };
    const business = async () => {
      const db = tenant(t.db, desk.companyId);
      return JSON.stringify([
        await db.selectFrom('tickets').selectAll().orderBy('tickets.id').execute(),
        await db.selectFrom('messages').selectAll().orderBy('messages.id').execute(),
        await db.selectFrom('settings').selectAll().orderBy('settings.id').execute(),
        await db.selectFrom('users').select(['users.id', 'users.name', 'users.language', 'users.version']).orderBy('users.id').execute(),
      ]);
    };

    let clients = 0;
    const codes = new Map<string, string[]>();
    let pushed = 0;
    for (const name of Object.keys(mutatorArgs) as MutatorName[]) {
      const schema = z.toJSONSchema(mutatorArgs[name], { io: 'input', unrepresentable: 'any' }) as JsonSchema;
      for (const [field, fieldSchema] of Object.entries(schema.properties ?? {})) {
        // One client per field: its errors are kept (the newest 50 per client), its ids count from 1.
        const clientID = `bad-${dialect}-${++clients}`;
        const mutations = badValues(fieldSchema).map((value, i) => ({ id: i + 1, clientID, name, args: { ...valid[name], [field]: value }, timestamp: Date.now() }));
        const res = await t.request('POST', '/sync/push', { token, body: { pushVersion: 1, schemaVersion: '', profileID: 'p', clientGroupID: `g-${clientID}`, mutations } });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        pushed += mutations.length;
        const client = await tenant(t.db, desk.companyId).selectFrom('replicacheClients').select('replicacheClients.lastMutationId').where('replicacheClients.id', '=', clientID).executeTakeFirstOrThrow();
        // Every one processed, applied or refused: none left to block the client's queue.
        expect(client.lastMutationId).toBe(mutations.length);
        const errors = await tenant(t.db, desk.companyId).selectFrom('replicacheMutationErrors').select(['replicacheMutationErrors.mutationId', 'replicacheMutationErrors.code']).where('replicacheMutationErrors.clientId', '=', clientID).execute();
        for (const e of errors) codes.set(e.code, [...(codes.get(e.code) ?? []), `${name}.${field}=${JSON.stringify(mutations[e.mutationId - 1]!.args[field as never]).slice(0, 60)}`]);
        await t.deps.outbox.idle();
      }
    }
    expect(codes.get('ERR_INTERNAL_SERVER_ERROR') ?? []).toEqual([]);
    for (const code of codes.keys()) expect(code).toMatch(/^ERR_[A-Z0-9_]+$/);
    expect(t.log.lines.filter((l) => l.msg === 'sync mutation failed')).toEqual([]);
    expect(pushed).toBeGreaterThan(300);
    expect(codes.get('ERR_VALIDATION')?.length ?? 0).toBeGreaterThan(100);

    // Arguments the shared schema refuses change nothing, whatever the mutator: pushed together by a
    // new client, on the rows as they now are.
    const before = await business();
    const refusedOnly = Object.keys(mutatorArgs).flatMap((name) => {
      const schema = z.toJSONSchema(mutatorArgs[name as MutatorName], { io: 'input', unrepresentable: 'any' }) as JsonSchema;
      return Object.keys(schema.properties ?? {}).flatMap((field) => [null, 'wrong', -1, 2147483648, {}].map((value) => ({ name, args: { ...valid[name as MutatorName], [field]: value } })));
    });
    const refused = refusedOnly.filter(({ name, args }) => !mutatorArgs[name as MutatorName].safeParse(args).success);
    const clientID = `bad-${dialect}-refused`;
    const res = await t.request('POST', '/sync/push', {
      token,
      body: { pushVersion: 1, clientGroupID: `g-${clientID}`, mutations: refused.map((m, i) => ({ id: i + 1, clientID, ...m })) },
    });
    expect(res.status).toBe(200);
    expect(refused.length).toBeGreaterThan(50);
    expect(await business()).toBe(before);

    // The protocol itself: refused whole, with a catalogue code.
    const group = `g-bad-${dialect}-protocol`;
    const good = { id: 1, clientID: `c-${group}`, name: 'markTicketRead', args: { ticketId: ticket.id } };
    for (const body of [
      '{"pushVersion":',
      [],
      { pushVersion: 1, clientGroupID: '', mutations: [good] },
      { pushVersion: 1, clientGroupID: group, mutations: 'x' },
      { pushVersion: 1, clientGroupID: group, mutations: [{ ...good, id: 0 }] },
      { pushVersion: 1, clientGroupID: group, mutations: [{ ...good, id: 1.5 }] },
      { pushVersion: 1, clientGroupID: group, mutations: [{ ...good, name: 'x'.repeat(101) }] },
      { pushVersion: 1, clientGroupID: group, mutations: Array.from({ length: 1001 }, (_, i) => ({ ...good, id: i + 1 })) },
    ]) {
      const answer = await t.request('POST', '/sync/push', { token, body });
      expect(answer.status, JSON.stringify(body).slice(0, 100)).toBe(400);
      expect(answer.body.error).toMatch(/^ERR_(VALIDATION|INVALID_JSON)$/);
    }
    // Another version of the protocol is told so in the protocol's own words, which Replicache acts on.
    const other = await t.request('POST', '/sync/push', { token, body: { pushVersion: 2, clientGroupID: group, mutations: [good] } });
    expect(other.body).toEqual({ error: 'VersionNotSupported', versionType: 'push' });
  });
});
