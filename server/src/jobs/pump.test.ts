import { describe, expect, it } from 'vitest';
import { createPump } from './pump.ts';
import { busy, countTurns } from './testing.ts';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A pass that waits until released, recording how many passes ran and how many overlapped. */
function gatedPass(more: () => boolean = () => false) {
  let release: (() => void) | undefined;
  const state = { passes: 0, inFlight: 0, maxInFlight: 0 };
  return {
    state,
    release: () => release?.(),
    pass: async () => {
      state.passes++;
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      await new Promise<void>((resolve) => (release = resolve));
      state.inFlight--;
      return more();
    },
  };
}

describe('createPump', () => {
  it('folds wakes in the same turn into one pass, run on a later turn', async () => {
    let passes = 0;
    const pump = createPump({ pass: async () => void passes++, onError: () => {} });
    pump.wake();
    pump.wake();
    pump.wake();
    expect(passes).toBe(0);
    expect(pump.busy).toBe(true);
    await turn();
    await turn();
    expect(passes).toBe(1);
    expect(pump.busy).toBe(false);
  });

  it('runs one pass at a time and folds wakes during a pass into exactly one more', async () => {
    const gate = gatedPass();
    let settled = 0;
    const pump = createPump({ pass: gate.pass, onError: () => {}, onSettled: () => settled++ });
    pump.wake();
    await turn();
    expect(gate.state.passes).toBe(1);
    for (let i = 0; i < 5; i++) pump.wake();
    gate.release();
    await turn();
    await turn();
    expect(gate.state.passes).toBe(2);
    expect(settled).toBe(0);
    gate.release();
    await turn();
    await turn();
    expect(gate.state).toMatchObject({ passes: 2, maxInFlight: 1 });
    expect(settled).toBe(1);
    expect(pump.busy).toBe(false);
  });

  it('runs another pass when a pass answers true, until one answers false', async () => {
    const answers = [true, true, false];
    let passes = 0;
    let settled = 0;
    const pump = createPump({ pass: async () => answers[passes++], onError: () => {}, onSettled: () => settled++ });
    pump.wake();
    for (let i = 0; i < 10; i++) await turn();
    expect(passes).toBe(3);
    expect(settled).toBe(1);
  });

  it('reports a failed pass, stays usable, and still runs the pass a wake asked for meanwhile', async () => {
    const errors: unknown[] = [];
    let passes = 0;
    let release: (() => void) | undefined;
    const pump = createPump({
      pass: async () => {
        passes++;
        if (passes === 1) {
          await new Promise<void>((resolve) => (release = resolve));
          throw new Error('claim failed');
        }
      },
      onError: (err) => errors.push(err),
    });
    pump.wake();
    await turn();
    pump.wake();
    release!();
    for (let i = 0; i < 5; i++) await turn();
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('claim failed');
    expect(passes).toBe(2);
    expect(pump.busy).toBe(false);
  });

  it('keeps bulk passes to the turn budget, and leaves other passes free', async () => {
    const passesPerTurn = async (bulk: boolean) => {
      const turns = countTurns();
      const ran: number[] = [];
      let settle!: () => void;
      const settled = new Promise<void>((resolve) => (settle = resolve));
      const pumps = Array.from({ length: 4 }, () =>
        createPump({
          pass: async () => {
            ran.push(turns.now);
            busy(3);
            if (ran.length === 4) settle();
          },
          onError: () => {},
          bulk: () => bulk,
        }),
      );
      for (const pump of pumps) pump.wake();
      await settled;
      turns.stop();
      const perTurn = new Map<number, number>();
      for (const t of ran) perTurn.set(t, (perTurn.get(t) ?? 0) + 1);
      return Math.max(...perTurn.values());
    };
    // 3 ms passes against a 4 ms budget: at most two in one turn when bulk, all four otherwise.
    expect(await passesPerTurn(true)).toBeLessThanOrEqual(2);
    expect(await passesPerTurn(false)).toBe(4);
  });

  it('starts a pass asked for now in this turn (after a running one, without waiting for a turn), unless the work is bulk', async () => {
    for (const bulk of [false, true]) {
      let passes = 0;
      const pump = createPump({ pass: async () => void passes++, onError: () => {}, bulk: () => bulk });
      pump.wake(true);
      await Promise.resolve();
      expect(passes).toBe(bulk ? 0 : 1);
      await turn();
      await turn();
      expect(passes).toBe(1);
    }

    // Asked for now while a pass runs: the next pass follows at once, not a turn later.
    const gate = gatedPass();
    const pump = createPump({ pass: gate.pass, onError: () => {} });
    pump.wake(true);
    expect(gate.state.passes).toBe(1);
    pump.wake(true);
    gate.release();
    for (let i = 0; i < 5 && gate.state.passes < 2; i++) await Promise.resolve();
    expect(gate.state).toMatchObject({ passes: 2, maxInFlight: 1 });
    gate.release();
    await turn();
    expect(pump.busy).toBe(false);
  });
});
