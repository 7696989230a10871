// Bad input through POST /sync/push, as the REST sweep does it over the routes (http/bad-input.test.ts):
// every mutator is pushed, field by field of its shared arguments schema, with values of the wrong
// type, at and past their limits, and ids of rows that do not exist, the other fields valid. Each
// such mutation is marked processed with a catalogue code of its own (never ERR_INTERNAL_SERVER_ERROR,
// the code of a failure nobody checked) and leaves the company's business rows as they were; pushes
// that break the protocol itself are refused with a catalogue code. Then business refusals: well-formed
// arguments the server must refuse (an unknown id and another company's in every id field, another
// user's name, a ticket outside the attendant's scope, a ticket not open, a reopening that would give
// the contact two open tickets…), each refused with its own code and changing no business row of
// either company.
import { mutatorArgs, type MutatorArgs, type MutatorName } from '@zapdesk/sync/mutators';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badValues, type JsonSchema } from '../../test/bad-values.ts';
import { newNumber, setupDesk } from '../../test/conversation.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { companyRows, rowChanges } from '../../test/schema-facts.ts';
import { tenant } from '../db/tenant.ts';
import { bumpVersion } from './version.ts';

type Desk = Awaited<ReturnType<typeof setupDesk>>;
/** A mutation the server must refuse with `code`; with none, it may take it but must change nothing. `idField`: the id replaced. */
type Case = { name: MutatorName; args: Record<string, unknown>; why: string; code?: string; idField?: string };
/** The codes of an id the actor cannot reach: unknown, or another company's, which must answer alike. */
const UNREACHABLE = ['ERR_NO_TICKET_FOUND', 'ERR_NOT_FOUND', 'ERR_NO_USER_FOUND', 'ERR_NO_WAPP_FOUND', 'ERR_NO_PERMISSION', 'ERR_VALIDATION'];
/** The push's own bookkeeping, written for a refused mutation too: its client group, its client, its error. */
const BOOKKEEPING = ['replicache_client_groups', 'replicache_clients', 'replicache_mutation_errors'];

describe.each(DIALECTS)('bad mutations on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  /** The companies' rows (schema-facts.ts companyRows) by `company:table`, without the push's own bookkeeping. */
  const businessRows = async (...companyIds: number[]) => {
    const out: Record<string, string> = {};
    for (const companyId of companyIds) {
      for (const [table, rows] of Object.entries(await companyRows(t, companyId))) if (!BOOKKEEPING.includes(table)) out[`${companyId}:${table}`] = rows;
    }
    return out;
  };

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
    const before = await businessRows(desk.companyId);
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
    expect(await businessRows(desk.companyId)).toEqual(before);

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

  it('refuses well-formed mutations the rules forbid with their own codes, changing no business row of either company', { timeout: 120_000 }, async () => {
    const a = await setupDesk(t, { queues: [{ name: 'Sales' }, { name: 'Support' }] });
    const b = await setupDesk(t, { queues: [{ name: 'Elsewhere' }] });
    const [q0, q1] = a.queues.map((q) => q.id) as [number, number];
    /** A customer's ticket moved by its company's admin (PUT /tickets/{id}), with the customer's first message. */
    const ticketIn = async (desk: Desk, change: Record<string, unknown>) => {
      const number = newNumber();
      await desk.say(number, 'hello');
      const { id } = (await desk.ticketOf(number))!;
      const moved = await t.request('PUT', `/tickets/${id}`, { token: desk.adminSession.token, body: change });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      const first = await tenant(t.db, desk.companyId).selectFrom('messages').select('messages.id').where('messages.ticketId', '=', id).orderBy('messages.id').executeTakeFirstOrThrow();
      return { id, number, message: first.id };
    };
    /** A message of ours in the ticket whose send failed: what resendMessage takes. */
    const failedIn = async (desk: Desk, ticketId: number, token: string) => {
      const sent = await t.request('POST', `/messages/${ticketId}`, { token, body: { body: 'This one fails' } });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      await t.deps.outbox.idle();
      await tenant(t.db, desk.companyId).updateTable('messages').set({ sendStatus: 'failed', sendError: 'ERR_SENDING_WAPP_MSG', ...bumpVersion() }).where('messages.id', '=', sent.body.id).execute();
      return sent.body.id as number;
    };
    const quickMessage = async (token: string, geral: boolean) => {
      const made = await t.request('POST', '/quick-messages', { token, body: { shortcode: `q${newNumber()}`, message: 'Hello', geral } });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      return made.body.id as number;
    };
    const [admin, attendant] = [a.admin.id, a.user.id];
    const mine = await ticketIn(a, { queueId: q0, userId: admin }); // open, the admin's
    const waiting = await ticketIn(a, { queueId: q0 }); // pending in the attendant's queue
    const theirs = await ticketIn(a, { queueId: q0, userId: attendant }); // open, the attendant's
    const elsewhere = await ticketIn(a, { queueId: q1 }); // pending outside the attendant's queues
    const closed = await ticketIn(a, { status: 'closed' });
    // The admin's too, but its connection is gone (deleted connections leave their tickets without one).
    const stranded = await ticketIn(a, { queueId: q0, userId: admin });
    await tenant(t.db, a.companyId).updateTable('tickets').set({ whatsappId: null, ...bumpVersion() }).where('tickets.id', '=', stranded.id).execute();
    // The customer writes again: a new ticket, so reopening the closed one would give them two.
    await a.say(closed.number, 'me again');
    expect((await a.ticketOf(closed.number))!.id).not.toBe(closed.id);
    const failed = { [mine.id]: await failedIn(a, mine.id, a.adminSession.token), [theirs.id]: await failedIn(a, theirs.id, a.userSession.token) };
    const shared = await quickMessage(a.adminSession.token, true);
    const othersPrivate = await quickMessage(a.outsiderSession.token, false);
    const foreignTicket = await ticketIn(b, { status: 'open' });
    // Another company's row for every id field a mutator takes.
    const foreign: Record<string, number> = {
      ticketId: foreignTicket.id,
      userId: b.admin.id,
      queueId: b.queues[0]!.id,
      whatsappId: b.connectionId,
      messageId: await failedIn(b, foreignTicket.id, b.adminSession.token),
      quotedMsgId: foreignTicket.message,
      quickMessageId: await quickMessage(b.adminSession.token, true),
    };
    await t.deps.outbox.idle();

    // Valid arguments for each caller, on a ticket of their own: each id field is replaced in turn.
    const sentAt = new Date().toISOString();
    const valid = (me: number, ticket: typeof mine): { [N in MutatorName]: MutatorArgs<N> } => ({
      updateSetting: { key: 'userRating', value: 'enabled' },
      setMyLanguage: { userId: me, language: 'en' },
      updateMyName: { userId: me, name: 'Some Name' },
      acceptTicket: { ticketId: waiting.id, userId: me },
      sendMessage: { ticketId: ticket.id, localId: 'local-0001', body: 'Hello', signMessage: false, userId: me, sentAt, quotedMsgId: ticket.message, quickMessageId: shared },
      markTicketRead: { ticketId: ticket.id },
      resendMessage: { ticketId: ticket.id, messageId: failed[ticket.id]! },
      resolveTicket: { ticketId: ticket.id, userId: me, farewell: false },
      returnTicket: { ticketId: ticket.id },
      transferTicket: { ticketId: ticket.id, queueId: q1, userId: null, whatsappId: null },
    });
    /** Every id field of every mutator, unknown and then another company's. */
    const unreachable = (base: Record<MutatorName, Record<string, unknown>>): Case[] =>
      (Object.keys(mutatorArgs) as MutatorName[]).flatMap((name) => {
        const schema = z.toJSONSchema(mutatorArgs[name], { io: 'input', unrepresentable: 'any' }) as JsonSchema;
        const ids = Object.entries(schema.properties ?? {}).filter(([, f]) => f.type === 'integer' || f.anyOf?.some((alt) => alt.type === 'integer'));
        return ids.flatMap(([field]) => {
          expect(foreign, `another company's id for ${name}.${field}`).toHaveProperty(field);
          return [
            { name, args: { ...base[name], [field]: 2147483647 }, why: `${field} unknown`, idField: field },
            { name, args: { ...base[name], [field]: foreign[field] }, why: `${field} of another company`, idField: field },
          ];
        });
      });
    const [adminArgs, attendantArgs] = [valid(admin, mine), valid(attendant, theirs)];
    const unsent = (args: MutatorArgs<'sendMessage'>, ticketId: number) => ({ ...args, ticketId, quotedMsgId: null });
    const callers: { who: string; token: string; valid: typeof adminArgs; cases: Case[] }[] = [
      {
        who: 'admin',
        token: a.adminSession.token,
        valid: adminArgs,
        cases: [
          ...unreachable(adminArgs),
          { name: 'updateSetting', args: { key: 'userRating', value: 'sometimes' }, code: 'ERR_VALIDATION', why: 'a value the setting does not take' },
          { name: 'setMyLanguage', args: { userId: attendant, language: 'es' }, code: 'ERR_NO_PERMISSION', why: "another user's language" },
          { name: 'updateMyName', args: { userId: attendant, name: 'Not Me' }, code: 'ERR_NO_PERMISSION', why: "another user's name" },
          { name: 'acceptTicket', args: { ticketId: waiting.id, userId: attendant }, code: 'ERR_NO_PERMISSION', why: "another user's name" },
          { name: 'acceptTicket', args: { ticketId: closed.id, userId: admin }, code: 'ERR_OTHER_OPEN_TICKET', why: 'a reopening while the contact has a newer ticket' },
          { name: 'transferTicket', args: { ticketId: closed.id, queueId: q0, userId: null, whatsappId: null }, code: 'ERR_OTHER_OPEN_TICKET', why: 'a closed ticket while the contact has a newer one' },
          { name: 'sendMessage', args: unsent(adminArgs.sendMessage, waiting.id), code: 'ERR_NO_PERMISSION', why: 'a pending ticket' },
          { name: 'sendMessage', args: unsent(adminArgs.sendMessage, closed.id), code: 'ERR_NO_PERMISSION', why: 'a closed ticket' },
          { name: 'sendMessage', args: { ...adminArgs.sendMessage, quotedMsgId: waiting.message }, code: 'ERR_VALIDATION', why: "a quote of another ticket's message" },
          { name: 'sendMessage', args: { ...adminArgs.sendMessage, quickMessageId: othersPrivate }, code: 'ERR_NOT_FOUND', why: "another user's private quick message" },
          { name: 'sendMessage', args: { ...adminArgs.sendMessage, body: ' ', quickMessageId: shared }, code: 'ERR_VALIDATION', why: 'no text and a quick message with no file' },
          { name: 'sendMessage', args: unsent(adminArgs.sendMessage, stranded.id), code: 'ERR_WAPP_NOT_INITIALIZED', why: 'a ticket without a connection' },
          { name: 'resendMessage', args: { ticketId: mine.id, messageId: mine.message }, code: 'ERR_VALIDATION', why: 'a message that did not fail' },
          { name: 'resendMessage', args: { ticketId: waiting.id, messageId: failed[mine.id] }, code: 'ERR_NOT_FOUND', why: 'a message of another ticket' },
          { name: 'resolveTicket', args: { ticketId: mine.id, userId: attendant, farewell: false }, code: 'ERR_NO_PERMISSION', why: "another user's name" },
          // Transitions the rules make nothing of: refused or not, nothing moves.
          { name: 'returnTicket', args: { ticketId: waiting.id }, why: 'a pending ticket' },
          { name: 'resolveTicket', args: { ticketId: closed.id, userId: admin, farewell: false }, why: 'a closed ticket' },
          { name: 'markTicketRead', args: { ticketId: theirs.id }, why: 'a ticket someone else holds' },
        ],
      },
      {
        who: 'attendant',
        token: a.userSession.token,
        valid: attendantArgs,
        cases: [
          ...unreachable(attendantArgs),
          { name: 'updateSetting', args: adminArgs.updateSetting, code: 'ERR_NO_PERMISSION', why: 'a company setting' },
          { name: 'acceptTicket', args: { ticketId: elsewhere.id, userId: attendant }, code: 'ERR_NO_PERMISSION', why: 'a ticket outside their queues' },
          { name: 'acceptTicket', args: { ticketId: mine.id, userId: attendant }, code: 'ERR_NO_PERMISSION', why: "a colleague's open ticket" },
          { name: 'sendMessage', args: unsent(attendantArgs.sendMessage, mine.id), code: 'ERR_NO_PERMISSION', why: "a colleague's ticket" },
          { name: 'sendMessage', args: unsent(attendantArgs.sendMessage, waiting.id), code: 'ERR_NO_PERMISSION', why: 'a pending ticket of their queue' },
          { name: 'markTicketRead', args: { ticketId: mine.id }, code: 'ERR_NO_PERMISSION', why: "a colleague's ticket" },
          { name: 'markTicketRead', args: { ticketId: elsewhere.id }, code: 'ERR_NO_PERMISSION', why: 'a ticket outside their queues' },
          { name: 'resendMessage', args: { ticketId: mine.id, messageId: failed[mine.id] }, code: 'ERR_NO_PERMISSION', why: "a colleague's message" },
          { name: 'resolveTicket', args: { ticketId: mine.id, userId: attendant, farewell: false }, code: 'ERR_NO_PERMISSION', why: "a colleague's ticket" },
          { name: 'returnTicket', args: { ticketId: mine.id }, code: 'ERR_NO_PERMISSION', why: "a colleague's ticket" },
          { name: 'transferTicket', args: { ticketId: mine.id, queueId: q0, userId: attendant, whatsappId: null }, code: 'ERR_NO_PERMISSION', why: "a colleague's ticket" },
          { name: 'transferTicket', args: { ticketId: elsewhere.id, queueId: q0, userId: null, whatsappId: null }, code: 'ERR_NO_PERMISSION', why: 'a ticket outside their queues' },
        ],
      },
    ];

    const problems: string[] = [];
    let n = 0;
    for (const { who, token, cases } of callers) {
      const before = await businessRows(a.companyId, b.companyId);
      // One client per case (its first mutation), all in one push: each is processed on its own.
      const mutations = cases.map((c) => ({ id: 1, clientID: `biz-${dialect}-${++n}`, name: c.name, args: c.args, timestamp: Date.now() }));
      const res = await t.request('POST', '/sync/push', { token, body: { pushVersion: 1, clientGroupID: `g-biz-${dialect}-${who}`, mutations } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const clients = mutations.map((m) => m.clientID);
      const db = tenant(t.db, a.companyId);
      const processed = await db.selectFrom('replicacheClients').select('replicacheClients.id').where('replicacheClients.id', 'in', clients).where('replicacheClients.lastMutationId', '=', 1).execute();
      expect(processed).toHaveLength(clients.length);
      const errors = await db.selectFrom('replicacheMutationErrors').select(['replicacheMutationErrors.clientId', 'replicacheMutationErrors.code']).where('replicacheMutationErrors.clientId', 'in', clients).execute();
      const codeOf = new Map(errors.map((e) => [e.clientId, e.code]));
      cases.forEach((c, i) => {
        const got = codeOf.get(clients[i]!);
        const what = `${who} ${c.name} with ${c.why}: ${got ?? 'applied'}`;
        if (got === 'ERR_INTERNAL_SERVER_ERROR') problems.push(what);
        else if (c.idField) {
          if (!got || !UNREACHABLE.includes(got)) problems.push(`${what}, expected one of ${UNREACHABLE.join(' ')}`);
          // Another company's id is answered as an unknown one is (the case before): nothing tells that it exists.
          else if (c.why.endsWith('of another company') && got !== codeOf.get(clients[i - 1]!)) problems.push(`${what}, unlike an unknown id`);
        } else if (c.code && got !== c.code) problems.push(`${what}, expected ${c.code}`);
      });
      await t.deps.outbox.idle();
      const after = await businessRows(a.companyId, b.companyId);
      for (const change of rowChanges(before, after)) problems.push(`${who}'s refused mutations: ${change}`);
    }
    expect(problems).toEqual([]);
    expect(t.log.lines.filter((l) => l.msg === 'sync mutation failed')).toEqual([]);
    expect(callers.flatMap((c) => c.cases).filter((c) => c.idField).length).toBeGreaterThan(40);

    // The control: the valid arguments are taken, so each refusal above was its replaced field's. The
    // attendant first: they accept the waiting ticket, which the admin then takes over. updateSetting
    // takes no id (and is not the attendant's).
    for (const { who, token, valid: args } of [...callers].reverse()) {
      const clientID = `biz-${dialect}-valid-${who}`;
      const names = (Object.keys(mutatorArgs) as MutatorName[]).filter((name) => name !== 'updateSetting');
      const mutations = names.map((name, i) => ({ id: i + 1, clientID, name, args: args[name], timestamp: Date.now() }));
      expect((await t.request('POST', '/sync/push', { token, body: { pushVersion: 1, clientGroupID: `g-biz-${dialect}-${who}`, mutations } })).status).toBe(200);
      const errors = await tenant(t.db, a.companyId).selectFrom('replicacheMutationErrors').select(['replicacheMutationErrors.name', 'replicacheMutationErrors.code']).where('replicacheMutationErrors.clientId', '=', clientID).execute();
      expect(errors, who).toEqual([]);
    }
  });
});
