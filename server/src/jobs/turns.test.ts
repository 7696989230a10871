import { describe, expect, it } from 'vitest';
import { busy, countTurns } from './testing.ts';
import { backgroundTurn } from './turns.ts';

describe('backgroundTurn', () => {
  it('lets a turn run background passes for about 4 ms, and the rest on the next turns, in order', async () => {
    // A turn counter: an I/O-free stand-in for "the sockets were read again" (it runs once per turn).
    const turns = countTurns();

    const ran: { pass: number; turn: number }[] = [];
    await Promise.all(
      Array.from({ length: 6 }, async (_, pass) => {
        await backgroundTurn();
        ran.push({ pass, turn: turns.now });
        busy(3);
      }),
    );
    turns.stop();

    // Started in order, none lost.
    expect(ran.map((r) => r.pass)).toEqual([0, 1, 2, 3, 4, 5]);
    // 3 ms each against a 4 ms budget: two passes a turn, never all six in one.
    const perTurn = new Map<number, number>();
    for (const r of ran) perTurn.set(r.turn, (perTurn.get(r.turn) ?? 0) + 1);
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(2);
    expect(perTurn.size).toBeGreaterThanOrEqual(3);
  });

  it('always runs the first pass of a turn, however long the passes before took', async () => {
    await backgroundTurn();
    busy(10);
    const started = performance.now();
    await backgroundTurn();
    // The next turn's budget is fresh: the pass runs on the very next turn.
    expect(performance.now() - started).toBeLessThan(50);
  });
});
