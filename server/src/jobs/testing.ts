// Helpers for the tests of work scheduled on the event loop (pump.test.ts, turns.test.ts).

/** Keeps the thread busy for `ms`, as a pass reading and writing SQLite does. */
export function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/**
 * Counts the turns of the event loop from now until `stop()`: a callback queued with setImmediate
 * that queues itself again runs once per turn.
 */
export function countTurns(): { readonly now: number; stop(): void } {
  let turns = 0;
  let counting = true;
  const count = () => {
    turns++;
    if (counting) setImmediate(count);
  };
  setImmediate(count);
  return {
    get now() {
      return turns;
    },
    stop: () => void (counting = false),
  };
}
