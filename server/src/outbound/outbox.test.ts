// The outbox through the real app on a fresh database (DESIGN §12): a slow network holds no
// database connection, a dropped number keeps its queue and sends it once and in order when it is
// back, a rolled-back push sends nothing and a retried one nothing twice, and REST and push writes
// of the same action leave the same rows and the same synced values.
import { rmSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNumber, setupDesk } from '../../test/conversation.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { waitFor } from '../channels/testing.ts';
import { tenant } from '../db/tenant.ts';
import { resolveMediaFile } from '../modules/media/storage.ts';
import { createOutbox, type OutboxOptions } from './dispatcher.ts';
import { write } from '../db/write.ts';
import { queueMessages } from '../modules/messages/send.ts';
import { bumpVersion } from '../sync/version.ts';

describe.each(DIALECTS)('outbox on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  let seq = 0;
  /** A Replicache client speaking the push protocol by hand: its own group, mutation ids from 1. */
  function pusher(token: string) {
    const group = `og-${dialect}-${++seq}`;
    const client = `oc-${dialect}-${seq}`;
    let id = 0;
    const body = (mutations: { name: string; args: unknown }[], first: number) => ({
      pushVersion: 1,
      schemaVersion: '',
      profileID: 'p',
      clientGroupID: group,
      mutations: mutations.map((m, i) => ({ id: first + i, clientID: client, name: m.name, args: m.args, timestamp: Date.now() })),
    });
    return {
      group,
      /** Pushes the mutations as the next ones of this client; the raw answer. */
      send(mutations: { name: string; args: unknown }[]) {
        const first = id + 1;
        id += mutations.length;
        return t.request('POST', '/sync/push', { token, body: body(mutations, first) });
      },
      /** Pushes the same request again (what Replicache does when it never saw the answer). */
      resend(mutations: { name: string; args: unknown }[], first: number) {
        return t.request('POST', '/sync/push', { token, body: body(mutations, first) });
      },
      pull(cookie: unknown = null) {
        return t.request('POST', '/sync/pull', { token, body: { pullVersion: 1, schemaVersion: '', profileID: 'p', clientGroupID: group, cookie } });
      },
    };
  }

  const reply = (ticketId: number, userId: number, body: string) => ({
    name: 'sendMessage',
    args: { ticketId, localId: `l${++seq}abcdefgh`, body, signMessage: false, userId, sentAt: new Date().toISOString() },
  });

  /** A customer's ticket, accepted by the desk's attendant. */
  async function openTicket(desk: Awaited<ReturnType<typeof setupDesk>>) {
    const from = newNumber();
    await desk.say(from, 'hello');
    const ticket = (await desk.ticketOf(from))!;
    expect((await t.request('PUT', `/tickets/${ticket.id}`, { token: desk.userSession.token, body: { status: 'open' } })).status).toBe(200);
    return { from, ticket };
  }

  const messageRows = (companyId: number, ticketId: number) =>
    tenant(t.db, companyId).selectFrom('messages').selectAll().where('messages.ticketId', '=', ticketId).where('messages.fromMe', '=', 1).orderBy('messages.id').execute();

  it('a 2 s send holds no database connection: reads, pulls and another number’s inbound messages go on meanwhile', async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const other = await setupDesk(t);
    const { from, ticket } = await openTicket(desk);
    const admin = desk.adminSession.token;
    expect((await t.request('POST', `/simulator/connections/${desk.connectionId}/faults`, { token: admin, body: { sendLatencyMs: 2000 } })).status).toBe(200);
    const me = pusher(desk.userSession.token);
    expect((await me.pull()).status).toBe(200);

    const started = Date.now();
    expect((await me.send([reply(ticket.id, desk.user.id, 'slow one')])).status).toBe(200);
    expect((await t.request('POST', `/messages/${ticket.id}`, { token: desk.userSession.token, body: { body: 'slow two' } })).status).toBe(201);
    // Both answered at once, long before the network took either.
    expect(Date.now() - started).toBeLessThan(1000);

    const timed = async (run: () => Promise<{ status: number }>) => {
      const at = performance.now();
      expect((await run()).status).toBe(200);
      return performance.now() - at;
    };
    const read = await timed(() => t.request('GET', '/tickets?status=open', { token: desk.userSession.token }));
    const pulled = await timed(() => me.pull());
    const customer = newNumber();
    const inbound = await timed(() => t.request('POST', '/simulator/messages', { token: other.adminSession.token, body: { connectionId: other.connectionId, from: customer, body: 'meanwhile' } }));
    // The sends are still on the wire: nothing reached the network yet.
    expect((await messageRows(desk.companyId, ticket.id)).map((m) => m.sendStatus)).toEqual(['queued', 'queued']);
    expect(Date.now() - started).toBeLessThan(2000);
    // With the database held by a send these would wait for it (2 s); they answer in a few ms.
    expect(read).toBeLessThan(500);
    expect(pulled).toBeLessThan(500);
    expect(inbound).toBeLessThan(500);
    expect((await other.ticketOf(customer))?.lastMessage).toBe('meanwhile');

    await t.deps.outbox.idle();
    expect((await desk.outbox(from)).map((m) => m.body)).toEqual(['slow one', 'slow two']);
    await t.request('POST', `/simulator/connections/${desk.connectionId}/faults`, { token: admin, body: { sendLatencyMs: 0 } });
  });

  it('a receipt that comes before the send is recorded waits for the record instead of being lost', async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const { ticket } = await openTicket(desk);
    const network = t.deps.sessions.simulator!;
    const channel = t.deps.outbox.channel(desk.connectionId)!;
    const send = channel.send.bind(channel);
    // The recipient's phone confirms each message, and the pipeline has handled its receipts
    // (their writes committed), before the send returns to the outbox: a network may be that quick.
    channel.send = async (request) => {
      const sent = await send(request);
      await network.ack(desk.connectionId, sent.id, 2);
      if (request.content.kind === 'text' && request.content.body === 'read at once') await network.ack(desk.connectionId, sent.id, 3);
      return sent;
    };
    try {
      for (const body of ['delivered at once', 'read at once']) {
        expect((await t.request('POST', `/messages/${ticket.id}`, { token: desk.userSession.token, body: { body } })).status).toBe(201);
      }
      await t.deps.outbox.idle();
      const rows = await waitFor(
        () => messageRows(desk.companyId, ticket.id),
        (list) => list.length === 2 && list.every((m) => m.ack >= 2),
        2_000,
      );
      expect(rows.map((m) => [m.body, m.sendStatus, m.ack])).toEqual([
        ['delivered at once', 'sent', 2],
        ['read at once', 'sent', 3],
      ]);
    } finally {
      channel.send = send;
    }
  });

  it('a number down for 10 s keeps 20 messages sent by REST and push queued, then sends each once, in order', { timeout: 60_000 }, async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const { from, ticket } = await openTicket(desk);
    const token = desk.userSession.token;
    const dropped = await t.request('POST', `/simulator/connections/${desk.connectionId}/drop`, { token: desk.adminSession.token, body: { cause: 'network', forMs: 10_000 } });
    expect(dropped.body).toMatchObject({ status: 'OPENING', forMs: 10_000 });
    const me = pusher(token);
    const bodies = Array.from({ length: 20 }, (_, i) => `while down ${String(i + 1).padStart(2, '0')}`);
    for (const [i, body] of bodies.entries()) {
      if (i % 2 === 0) expect((await t.request('POST', `/messages/${ticket.id}`, { token, body: { body } })).status).toBe(201);
      else expect((await me.send([reply(ticket.id, desk.user.id, body)])).status).toBe(200);
    }
    const rows = await messageRows(desk.companyId, ticket.id);
    expect(rows.map((m) => m.body)).toEqual(bodies);
    expect(rows.every((m) => m.sendStatus === 'queued' && m.ack === 0)).toBe(true);
    expect((await desk.outbox(from)).length).toBe(0);

    const sent = await waitFor(() => messageRows(desk.companyId, ticket.id), (all) => all.every((m) => m.sendStatus === 'sent'), 20_000);
    const outbox = await desk.outbox(from);
    expect(outbox.map((m) => m.body)).toEqual(bodies);
    expect(sent.map((m) => m.wid)).toEqual(outbox.map((m) => m.id));
    expect(sent.every((m) => m.ack === 1)).toBe(true);
    expect(await tenant(t.db, desk.companyId).selectFrom('outbox').select('outbox.id').where('outbox.ticketId', '=', ticket.id).execute()).toEqual([]);
  });

  it('has up to the bulk concurrency of a campaign’s messages on the wire at once, and up to the concurrency of conversations’', { timeout: 30_000 }, async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const tickets: NonNullable<Awaited<ReturnType<typeof desk.ticketOf>>>[] = [];
    for (let i = 0; i < 24; i++) {
      const from = newNumber();
      await desk.say(from, 'hi');
      tickets.push((await desk.ticketOf(from))!);
    }
    await t.deps.outbox.idle();
    const admin = desk.adminSession.token;
    await t.request('POST', `/simulator/connections/${desk.connectionId}/faults`, { token: admin, body: { sendLatencyMs: 150 } });
    /**
     * Queues one message per ticket (a campaign's when `origin` is given) and answers how many left
     * together at most: with 150 ms on the wire, the sends of one claim reach WhatsApp together and
     * the next claim's 150 ms later.
     */
    const mostAtOnce = async (body: string, origin?: string) => {
      await write(t.deps, (tx) => queueMessages(tx, desk.companyId, tickets.map((ticket) => ({ ticket, out: { body, origin } }))));
      const arrived = (await desk.outbox()).filter((m) => m.body === body).map((m) => Date.parse(m.timestamp)).sort((a, b) => a - b);
      expect(arrived).toHaveLength(tickets.length);
      const waves = [1];
      for (let i = 1; i < arrived.length; i++) {
        if (arrived[i]! - arrived[i - 1]! > 60) waves.push(1);
        else waves[waves.length - 1]! += 1;
      }
      return Math.max(...waves);
    };
    expect(t.deps.outbox.bulkConcurrency).toBe(8);
    expect(await mostAtOnce('promo', 'campaign:0')).toBe(8);
    expect(await mostAtOnce('a reply')).toBe(t.deps.outbox.concurrency);
    await t.request('POST', `/simulator/connections/${desk.connectionId}/faults`, { token: admin, body: { sendLatencyMs: 0 } });
  });

  // SQLite takes 32,766 values per statement: 2,048 messages of 16 (PostgreSQL 65,535: 4,096).
  it.runIf(dialect === 'sqlite')('queues more messages at once than one statement takes, each with its place in the queue', { timeout: 120_000 }, async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const { ticket } = await openTicket(desk);
    const N = 2_100;
    const queued = await write(t.deps, (tx) => queueMessages(tx, desk.companyId, Array.from({ length: N }, (_, i) => ({ ticket, out: { body: `bulk ${i}`, origin: 'campaign:0' } }))));
    expect(queued).toHaveLength(N);
    const db = tenant(t.db, desk.companyId);
    const rows = await db.selectFrom('messages').select(['messages.id', 'messages.body']).where('messages.id', 'in', queued.slice(0, 1000).map((m) => m.id)).execute();
    const bodies = new Map(rows.map((r) => [r.id, r.body]));
    expect(queued.slice(0, 1000).every((m, i) => bodies.get(m.id) === `bulk ${i}`)).toBe(true);
    const last = await db.selectFrom('messages').select('messages.body').where('messages.id', '=', queued.at(-1)!.id).executeTakeFirstOrThrow();
    expect(last.body).toBe(`bulk ${N - 1}`);
    // Every one sent or waiting in the outbox, none lost: the dispatcher sends them all.
    const sent = await waitFor(async () => (await desk.outbox()).filter((m) => m.body.startsWith('bulk ')).length, (n) => n >= N, 60_000);
    expect(sent).toBe(N);
  });

  it('a push whose mutation rolls back after queueing sends nothing; the retried push sends it once', async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const { from, ticket } = await openTicket(desk);
    const me = pusher(desk.userSession.token);
    // The last step of a push's transaction (its client's lastMutationID) fails once, after the
    // service queued the message: the database undoes everything, as a crash there would.
    const failing = sql.raw(
      dialect === 'postgres'
        ? `CREATE FUNCTION fail_push() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'simulated failure'; END $$;
           CREATE TRIGGER fail_push BEFORE UPDATE ON replicache_clients FOR EACH ROW WHEN (NEW.last_mutation_id > 0) EXECUTE FUNCTION fail_push()`
        : `CREATE TRIGGER fail_push BEFORE UPDATE ON replicache_clients WHEN new.last_mutation_id > 0 BEGIN SELECT RAISE(ABORT, 'simulated failure'); END`,
    );
    const healed = sql.raw(dialect === 'postgres' ? 'DROP TRIGGER fail_push ON replicache_clients; DROP FUNCTION fail_push()' : 'DROP TRIGGER fail_push');
    const mutations = [reply(ticket.id, desk.user.id, 'exactly once')];
    await failing.execute(t.db);
    let res;
    try {
      res = await me.send(mutations);
    } finally {
      await healed.execute(t.db);
    }
    expect(res.status).toBe(500);
    expect(res.body.error).toBe('ERR_INTERNAL_SERVER_ERROR');
    await t.deps.outbox.idle();
    expect(await messageRows(desk.companyId, ticket.id)).toEqual([]);
    expect(await desk.outbox(from)).toEqual([]);

    // Replicache retries the same push; and once more, as if the first answer was lost.
    expect((await me.resend(mutations, 1)).status).toBe(200);
    expect((await me.resend(mutations, 1)).status).toBe(200);
    expect((await desk.outbox(from)).map((m) => m.body)).toEqual(['exactly once']);
    expect((await messageRows(desk.companyId, ticket.id)).map((m) => [m.body, m.sendStatus])).toEqual([['exactly once', 'sent']]);
  });

  it('a push whose later mutation fails keeps the earlier one (sent once) and sends nothing for the failed one', async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    const { from, ticket } = await openTicket(desk);
    const me = pusher(desk.userSession.token);
    // The second reply names another user: refused (a business error, recorded for the client).
    const res = await me.send([reply(ticket.id, desk.user.id, 'kept'), reply(ticket.id, desk.outsider.id, 'refused')]);
    expect(res.status).toBe(200);
    expect((await desk.outbox(from)).map((m) => m.body)).toEqual(['kept']);
    expect((await messageRows(desk.companyId, ticket.id)).map((m) => m.body)).toEqual(['kept']);
  });

  it('REST and push writes of the same action leave the same rows and the same synced values', async () => {
    const desk = await setupDesk(t, { queues: [{}] });
    await tenant(t.db, desk.companyId).updateTable('whatsapps').set({ complationMessage: 'Bye!', ...bumpVersion() }).where('whatsapps.id', '=', desk.connectionId).execute();
    const token = desk.userSession.token;
    const viaRest = newNumber();
    const viaPush = newNumber();
    await desk.say(viaRest, 'hello');
    await desk.say(viaPush, 'hello');
    const rest = (await desk.ticketOf(viaRest))!;
    const pushed = (await desk.ticketOf(viaPush))!;
    const me = pusher(token);

    expect((await t.request('PUT', `/tickets/${rest.id}`, { token, body: { status: 'open' } })).status).toBe(200);
    expect((await t.request('POST', `/messages/${rest.id}`, { token, body: { body: 'Same words', signMessage: true } })).status).toBe(201);
    expect((await me.send([{ name: 'acceptTicket', args: { ticketId: pushed.id, userId: desk.user.id } }, { ...reply(pushed.id, desk.user.id, 'Same words'), args: { ...reply(pushed.id, desk.user.id, 'Same words').args, signMessage: true } }])).status).toBe(200);
    await t.deps.outbox.idle();

    const pull = await me.pull();
    const values = (pull.body.patch as { op: string; key: string; value: Record<string, unknown> }[]).filter((p) => p.op === 'put');
    const synced = (prefix: string) => values.filter((p) => p.key.startsWith(prefix)).map((p) => p.value);
    const strip = (v: Record<string, unknown>) => {
      const rest: Record<string, unknown> = { ...v };
      for (const k of ['id', 'uuid', 'wid', 'ticketId', 'contactId', 'contact', 'createdAt', 'updatedAt', 'lastInteractionAt', 'closedAt']) delete rest[k];
      return rest;
    };
    const ticketValue = (id: number) => strip(synced(`ticket/${id}`)[0]!);
    expect(ticketValue(pushed.id)).toEqual(ticketValue(rest.id));
    const myMessages = (id: number) => synced(`message/${id}/`).filter((m) => m.fromMe).map(strip);
    expect(myMessages(pushed.id)).toEqual(myMessages(rest.id));
    expect(myMessages(rest.id)).toMatchObject([{ body: `*${desk.user.name}*:\nSame words`, sendStatus: 'sent', ack: 1 }]);

    const rowOf = async (id: number) => strip((await messageRows(desk.companyId, id))[0] as unknown as Record<string, unknown>);
    expect(await rowOf(pushed.id)).toEqual(await rowOf(rest.id));

    // Resolving with the farewell, both ways: the same ticket state and the same farewell message.
    expect((await t.request('PUT', `/tickets/${rest.id}`, { token, body: { status: 'closed' } })).status).toBe(200);
    expect((await me.send([{ name: 'resolveTicket', args: { ticketId: pushed.id, userId: desk.user.id } }])).status).toBe(200);
    await t.deps.outbox.idle();
    const closed = async (id: number) => strip((await tenant(t.db, desk.companyId).selectFrom('tickets').selectAll().where('tickets.id', '=', id).executeTakeFirstOrThrow()) as unknown as Record<string, unknown>);
    expect(await closed(pushed.id)).toEqual(await closed(rest.id));
    const farewells = async (id: number) => (await messageRows(desk.companyId, id)).map((m) => [m.body, m.sendStatus]);
    expect(await farewells(pushed.id)).toEqual(await farewells(rest.id));
    expect((await farewells(rest.id)).at(-1)).toEqual(['Bye!', 'sent']);
  });
});

describe.each(DIALECTS)('outbox start on %s', (dialect) => {
  /**
   * A fresh app with a customer's ticket accepted and this process's outbox stopped (as a killed
   * process leaves it); `restart` starts a new dispatcher, as the next start would.
   */
  async function withStoppedOutbox(
    fn: (s: { t: TestApp; desk: Awaited<ReturnType<typeof setupDesk>>; from: string; ticketId: number; restart: (opts?: Partial<OutboxOptions>) => ReturnType<typeof createOutbox> }) => Promise<void>,
  ) {
    const t = await createTestApp(dialect, { simulator: true });
    try {
      const desk = await setupDesk(t, { queues: [{}] });
      const from = newNumber();
      await desk.say(from, 'hello');
      const ticket = (await desk.ticketOf(from))!;
      await t.request('PUT', `/tickets/${ticket.id}`, { token: desk.userSession.token, body: { status: 'open' } });
      await t.deps.outbox.stop();
      const restart = (opts: Partial<OutboxOptions> = {}) => {
        // No status event, no new row: only its first sweep (or a wake) finds the rows.
        const restarted = createOutbox({ getChannel: (id) => t.deps.sessions.getChannel(id), sweepMs: 60_000, ...opts });
        restarted.start({ ...t.deps, outbox: restarted });
        return restarted;
      };
      await fn({ t, desk, from, ticketId: ticket.id, restart });
    } finally {
      await t.close();
    }
  }

  it('fails as unconfirmed what a dead process was sending, on a connection with nothing else queued', () =>
    withStoppedOutbox(async ({ t, desk, from, ticketId, restart }) => {
      // The row is left as a process killed mid-send leaves it.
      const sent = await t.request('POST', `/messages/${ticketId}`, { token: desk.userSession.token, body: { body: 'in flight at the crash' } });
      const outbox = tenant(t.db, desk.companyId);
      await outbox.updateTable('outbox').set({ state: 'sending', claimedBy: 'a-dead-process', claimedAt: new Date().toISOString(), attempts: 1 }).where('outbox.messageId', '=', sent.body.id).execute();

      const restarted = restart();
      const row = () => outbox.selectFrom('messages').select(['messages.sendStatus', 'messages.sendError']).where('messages.id', '=', sent.body.id).executeTakeFirstOrThrow();
      expect(await waitFor(row, (r) => r.sendStatus !== 'queued')).toEqual({ sendStatus: 'failed', sendError: 'ERR_SEND_UNCONFIRMED' });
      expect(await outbox.selectFrom('outbox').select('outbox.id').execute()).toEqual([]);
      // Never sent again on its own.
      expect((await desk.outbox(from)).map((m) => m.body)).toEqual([]);
      await restarted.stop();
    }));

  it('a send the network fails for a moment goes again after its backoff, once, before the messages after it; one that keeps failing fails for good and the next still goes', () =>
    withStoppedOutbox(async ({ t, desk, from, ticketId, restart }) => {
      const admin = desk.adminSession.token;
      const say = async (body: string) => (await t.request('POST', `/messages/${ticketId}`, { token: desk.userSession.token, body: { body } })).body.id as number;
      const db = tenant(t.db, desk.companyId);
      const state = (id: number) => db.selectFrom('messages').select(['messages.sendStatus', 'messages.sendError']).where('messages.id', '=', id).executeTakeFirstOrThrow();
      // The next attempt fails as a dropped request does (a transient error, not a final code).
      await t.request('POST', `/simulator/connections/${desk.connectionId}/faults`, { token: admin, body: { failSends: 1 } });
      const first = await say('first');
      const second = await say('second');
      // Its sweep is a minute away: the retry is the lane's own doing (a read after the row is queued again).
      const restarted = restart({ backoffMs: 20, attempts: 3 });
      restarted.wake(desk.connectionId);
      expect(await waitFor(() => state(second), (r) => r.sendStatus !== 'queued')).toEqual({ sendStatus: 'sent', sendError: null });
      expect(await state(first)).toEqual({ sendStatus: 'sent', sendError: null });
      expect((await desk.outbox(from)).map((m) => m.body)).toEqual(['first', 'second']);

      // Every attempt fails: the third is the last.
      await t.request('POST', `/simulator/connections/${desk.connectionId}/faults`, { token: admin, body: { failSends: 3 } });
      const doomed = await say('doomed');
      const after = await say('after it');
      // (The app's own dispatcher is stopped: its wake is this one's.)
      restarted.wake(desk.connectionId);
      expect(await waitFor(() => state(doomed), (r) => r.sendStatus !== 'queued')).toEqual({ sendStatus: 'failed', sendError: 'ERR_SENDING_WAPP_MSG' });
      expect(await waitFor(() => state(after), (r) => r.sendStatus !== 'queued')).toEqual({ sendStatus: 'sent', sendError: null });
      await restarted.idle();
      expect((await desk.outbox(from)).map((m) => m.body)).toEqual(['first', 'second', 'after it']);
      expect((await t.request('POST', `/simulator/connections/${desk.connectionId}/faults`, { token: admin, body: {} })).body.failSends).toBe(0);
      await restarted.stop();
    }));

  it('a queued file that is gone from disk when its turn comes fails with its code; the text queued after it still goes', () =>
    withStoppedOutbox(async ({ t, desk, from, ticketId, restart }) => {
      const form = new FormData();
      // A PNG by its first bytes, as every uploaded image must be.
      form.append('medias', new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Uint8Array(56)])], { type: 'image/png' }), 'photo.png');
      const uploaded = await t.app.request(`/messages/${ticketId}`, { method: 'POST', headers: { authorization: `Bearer ${desk.userSession.token}` }, body: form });
      expect(uploaded.status).toBe(201);
      const [image] = ((await uploaded.json()) as { messages: { id: number; mediaUrl: string }[] }).messages;
      const text = await t.request('POST', `/messages/${ticketId}`, { token: desk.userSession.token, body: { body: 'and a text after it' } });
      const db = tenant(t.db, desk.companyId);
      const stored = await db.selectFrom('messages').select('messages.mediaUrl').where('messages.id', '=', image!.id).executeTakeFirstOrThrow();
      rmSync(resolveMediaFile(t.deps.config.mediaDir, stored.mediaUrl!)!);

      const restarted = restart();
      restarted.wake(desk.connectionId);
      const state = (id: number) => db.selectFrom('messages').select(['messages.sendStatus', 'messages.sendError']).where('messages.id', '=', id).executeTakeFirstOrThrow();
      expect(await waitFor(() => state(image!.id), (r) => r.sendStatus !== 'queued')).toEqual({ sendStatus: 'failed', sendError: 'ERR_SENDING_WAPP_MSG' });
      expect(await waitFor(() => state(text.body.id), (r) => r.sendStatus !== 'queued')).toEqual({ sendStatus: 'sent', sendError: null });
      await restarted.idle();
      expect((await desk.outbox(from)).map((m) => m.body)).toEqual(['and a text after it']);
      await restarted.stop();
    }));
});
