// The worker's read of queued turns (turns.ts findQueuedTurns) on a fresh database of each dialect:
// oldest first, leaving out the tickets it has under way, whatever their number (they go to the
// database as one parameter).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newNumber, setupDesk } from '../../test/conversation.ts';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { tenant } from '../db/tenant.ts';
import { findQueuedTurns } from './turns.ts';

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
});
