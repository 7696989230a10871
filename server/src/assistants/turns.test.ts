// The assistant_turns queue (turns.ts) on a fresh database of each dialect: the worker's read of
// queued turns, oldest first, leaving out the tickets it has under way, whatever their number (they
// go to the database as one parameter); and how messages queue turns (a prompt's join its ticket's
// queued turn).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNumber, setupDesk } from '../../test/conversation.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { tenant } from '../db/tenant.ts';
import { write } from '../db/write.ts';
import { findQueuedTurns, queueTurn } from './turns.ts';

describe.each(DIALECTS)('queued assistant turns on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { simulator: true });
  });
  afterAll(async () => t.close());

  it('are read oldest first, without the tickets under way, however many those are', async () => {
    const desk = await setupDesk(t);
    const tickets: number[] = [];
    for (let i = 0; i < 4; i++) {
      const from = newNumber();
      await desk.say(from, 'oi');
      tickets.push((await desk.ticketOf(from))!.id);
    }
    const [a, b, c, d] = tickets as [number, number, number, number];
    // Two turns per ticket, due in an hour: the running worker reads them but leaves them queued.
    const later = new Date(Date.now() + 3_600_000).toISOString();
    for (const ticketId of [a, b, c, d, a, b, c, d]) {
      await tenant(t.db, desk.companyId).insertInto('assistantTurns', { ticketId, messageId: null, kind: 'integration', targetId: 1, notBefore: later }).execute();
    }
    const ticketsOf = async (busy: number[]) => (await findQueuedTurns(t.deps, new Set(busy), 100)).map((turn) => turn.ticketId).filter((id) => tickets.includes(id));
    expect(await ticketsOf([])).toEqual([a, b, c, d, a, b, c, d]);
    expect(await ticketsOf([a, c])).toEqual([b, d, b, d]);
    const many = Array.from({ length: 300 }, (_, i) => 1_000_000 + i);
    expect(await ticketsOf([...many, b])).toEqual([a, c, d, a, c, d]);
    expect(await ticketsOf([...many, a, b, c, d])).toEqual([]);
  });

  it("a prompt's later message joins its ticket's queued turn; an integration's each queue a turn of their own", async () => {
    const desk = await setupDesk(t);
    const from = newNumber();
    await desk.say(from, 'oi');
    await desk.say(from, 'preciso de ajuda');
    const ticketId = (await desk.ticketOf(from))!.id;
    const db = tenant(t.db, desk.companyId);
    const [first, second] = (await db.selectFrom('messages').select('messages.id').where('messages.ticketId', '=', ticketId).orderBy('messages.id').execute()).map((m) => m.id);
    const turnsOf = (kind: string) => db.selectFrom('assistantTurns').select(['assistantTurns.messageId']).where('assistantTurns.ticketId', '=', ticketId).where('assistantTurns.kind', '=', kind).orderBy('assistantTurns.id').execute();
    // In one write, so the running worker cannot take the first turn before the second message comes.
    await write(t.deps, async (tx) => {
      for (const messageId of [first!, second!]) await queueTurn(tx, { companyId: desk.companyId, ticketId, messageId, kind: 'prompt', targetId: 999_999 });
      for (const messageId of [first!, second!]) await queueTurn(tx, { companyId: desk.companyId, ticketId, messageId, kind: 'integration', targetId: 999_999 });
    });
    expect(await turnsOf('prompt')).toEqual([{ messageId: second }]);
    expect(await turnsOf('integration')).toEqual([{ messageId: first }, { messageId: second }]);
  });
});
