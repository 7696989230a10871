// Bulk background work takes turns with the requests. Node runs, in every turn of its event loop,
// the sockets that became readable (requests, their answers) and then every callback queued with
// setImmediate. Under a campaign the campaign loops' claims, the outbox lanes and the writer each
// queue work, so one turn ran it all back to back (20–30 ms) and a request waited for the whole turn.
// Used by the campaign loops (modules/campaigns/dispatch/job.ts) and, through createPump's `bulk`,
// by an outbox lane whose queue ahead holds only campaign sends; not for a conversation's reply.
//
// `backgroundTurn()` resolves on a fresh turn in which background work has not yet run for
// BUDGET_MS: once the passes of a turn have used it, the rest wait for the next turn, after the
// sockets were read again. The first pass of a turn always runs, so work never stalls, and passes
// keep their order (each waits at the end of the queue of the next turn).

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Background time per turn of the event loop after which the other passes wait for the next turn. */
const BUDGET_MS = 4;

// When the current turn's first background pass started; `marked` is cleared by a callback queued
// then, which runs at the start of the next turn's queue (before any pass re-queued meanwhile).
let turnStarted = 0;
let marked = false;
const unmark = () => {
  marked = false;
};

export async function backgroundTurn(): Promise<void> {
  for (;;) {
    await nextTurn();
    const now = performance.now();
    if (!marked) {
      marked = true;
      turnStarted = now;
      setImmediate(unmark);
      return;
    }
    if (now - turnStarted < BUDGET_MS) return;
  }
}
