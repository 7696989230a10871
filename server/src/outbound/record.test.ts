// Recording sends the network took, several at once (record.ts recordSentBatch), on a fresh
// database: the same rows as recording each on its own, an echo of one of them removed, and nothing
// of another company touched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNumber, setupDesk } from '../../test/conversation.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { tenant } from '../db/tenant.ts';
import { write } from '../db/write.ts';
import { queueTicketMessage } from '../modules/messages/send.ts';
import { recordSent, recordSentBatch } from './record.ts';

describe.each(DIALECTS)('recording taken sends on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  /** A customer's ticket on a number that is down, with `bodies` queued to it (the dispatcher cannot send them). */
  async function queuedReplies(bodies: string[]) {
    const desk = await setupDesk(t);
    const from = newNumber();
    await desk.say(from, 'hello');
    const ticket = (await desk.ticketOf(from))!;
    const dropped = await t.request('POST', `/simulator/connections/${desk.connectionId}/drop`, { token: desk.adminSession.token, body: { cause: 'network', forMs: 60_000 } });
    expect(dropped.status).toBe(200);
    await write(t.deps, async (tx) => {
      for (const body of bodies) await queueTicketMessage(tx, ticket, { body });
    });
    const db = tenant(t.db, desk.companyId);
    const rows = await db.selectFrom('outbox').selectAll('outbox').where('outbox.ticketId', '=', ticket.id).orderBy('outbox.id').execute();
    expect(rows).toHaveLength(bodies.length);
    return { desk, ticket, db, rows };
  }

  const messagesOf = (db: ReturnType<typeof tenant>, ids: number[]) =>
    db.selectFrom('messages').select(['messages.id', 'messages.wid', 'messages.ack', 'messages.sendStatus', 'messages.sendError', 'messages.version']).where('messages.id', 'in', ids).orderBy('messages.id').execute();

  it('records each message sent with its own network id, removes the echo and the outbox rows, as one by one would', async () => {
    const batch = await queuedReplies(['one', 'two', 'three']);
    const single = await queuedReplies(['one', 'two', 'three']);
    const tag = `${dialect}-${Date.now()}`;
    const wids = (prefix: string) => batch.rows.map((_, i) => `${prefix}-${tag}-${i}`);

    // The network reported our second send back as a message from the phone, stored before our record.
    const echo = await batch.db
      .insertInto('messages', { wid: wids('b')[1]!, ticketId: batch.ticket.id, contactId: batch.ticket.contactId, whatsappId: batch.desk.connectionId, body: 'two', fromMe: 1, read: 1, ack: 1 })
      .returning('messages.id')
      .executeTakeFirstOrThrow();
    const before = await messagesOf(batch.db, batch.rows.map((r) => r.messageId));

    // What the live channels hear after the commit.
    const heard: { entity: string; action: string; id: number }[] = [];
    const entityEvents = t.deps.realtime.entityEvents.bind(t.deps.realtime);
    t.deps.realtime.entityEvents = (events) => {
      heard.push(...events.map(({ entity, action, id }) => ({ entity, action, id })));
      return entityEvents(events);
    };
    try {
      await write(t.deps, (tx) => recordSentBatch(tx, batch.desk.companyId, batch.rows.map((row, i) => ({ row, wid: wids('b')[i]! }))));
    } finally {
      t.deps.realtime.entityEvents = entityEvents;
    }
    expect(heard.filter((e) => e.entity === 'appMessage')).toEqual(batch.rows.map((r) => ({ entity: 'appMessage', action: 'update', id: r.messageId })));
    await write(t.deps, async (tx) => {
      for (const [i, row] of single.rows.entries()) await recordSent(tx, single.desk.companyId, row, wids('s')[i]!);
    });

    const batched = await messagesOf(batch.db, batch.rows.map((r) => r.messageId));
    const oneByOne = await messagesOf(single.db, single.rows.map((r) => r.messageId));
    expect(batched.map((m) => m.wid)).toEqual(wids('b'));
    const outcome = (m: (typeof batched)[number]) => ({ ack: m.ack, sendStatus: m.sendStatus, sendError: m.sendError });
    expect(batched.map(outcome)).toEqual(oneByOne.map(outcome));
    expect(batched.map((m) => m.sendStatus)).toEqual(['sent', 'sent', 'sent']);
    expect(batched.map((m) => m.ack)).toEqual([1, 1, 1]);
    expect(batched.map((m, i) => m.version - before[i]!.version)).toEqual([1, 1, 1]);
    expect(await batch.db.selectFrom('messages').select('messages.id').where('messages.id', '=', echo.id).executeTakeFirst()).toBeUndefined();
    for (const side of [batch, single]) {
      expect(await side.db.selectFrom('outbox').select('outbox.id').where('outbox.ticketId', '=', side.ticket.id).execute()).toEqual([]);
    }
  });

  it('touches only the named company: another company’s rows with the same ids stay as they were', async () => {
    const mine = await queuedReplies(['mine']);
    const theirs = await queuedReplies(['theirs']);
    const theirsBefore = await messagesOf(theirs.db, [theirs.rows[0]!.messageId]);
    // The other company's rows handed in under my company: nothing of theirs may change.
    await write(t.deps, (tx) =>
      recordSentBatch(tx, mine.desk.companyId, [
        { row: mine.rows[0]!, wid: `m-${dialect}-${Date.now()}` },
        { row: theirs.rows[0]!, wid: `t-${dialect}-${Date.now()}` },
      ]),
    );
    expect(await messagesOf(theirs.db, [theirs.rows[0]!.messageId])).toEqual(theirsBefore);
    expect(await theirs.db.selectFrom('outbox').select('outbox.id').where('outbox.id', '=', theirs.rows[0]!.id).execute()).toHaveLength(1);
    expect((await messagesOf(mine.db, [mine.rows[0]!.messageId]))[0]!.sendStatus).toBe('sent');
  });
});
