// The assistants' worker: claims due turns (one at a time per ticket, in order; up to
// `concurrency` tickets at once), runs each (turn.ts) and looks again when a write queues a turn
// (the `wake` effect), when a turn ends, and every second for retries that came due. A slow
// service holds a slot of its own ticket only: other tickets, and the inbound pipeline, go on.
import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../context.ts';
import { createPump } from '../jobs/pump.ts';
import { runTurn } from './turn.ts';
import { claimTurns, findQueuedTurns, hasLiveTurns, requeueAbandoned } from './turns.ts';

export type Assistants = {
  /**
   * A write queued turns: look after the commit. On SQLite the claim is a statement on this thread
   * and a customer waits for each turn, so the look is made in the commit's turn of the event loop
   * (as an outbox lane's: outbound/README.md "Fairness"); elsewhere in the next.
   */
  wake(): void;
  /** Starts the worker: turns a dead process left running go back to the queue. */
  start(deps: AppDeps): Promise<void>;
  /** Stops claiming, aborts the calls under way (their turns are taken again at the next start). */
  stop(): Promise<void>;
  /** Resolves once no turn is queued, due or running (tests and benchmarks). */
  idle(): Promise<void>;
};

export function createAssistants(opts: { concurrency: number; pollMs?: number }): Assistants {
  const instance = randomUUID();
  const busy = new Set<number>();
  const running = new Set<Promise<void>>();
  const abort = new AbortController();
  let deps: AppDeps | undefined;
  let timer: NodeJS.Timeout | undefined;

  const pump = createPump({
    pass: () => (deps && !abort.signal.aborted ? claimDue(deps) : Promise.resolve(false)),
    onError: (err) => deps?.log.error('assistant worker failed to claim', { error: err instanceof Error ? err.message : String(err) }),
  });

  function wake(now = false) {
    if (deps && !abort.signal.aborted) pump.wake(now);
  }

  /** Claims and starts what there is room for; true when a full page may hide more due turns. */
  async function claimDue(app: AppDeps): Promise<boolean> {
    const room = opts.concurrency - busy.size;
    if (room <= 0) return false;
    const queued = await findQueuedTurns(app, busy, room * 4);
    // Each ticket's oldest turn if it is due, as many as there is room for, claimed together.
    const now = new Date().toISOString();
    const first = new Map<number, (typeof queued)[number]>();
    for (const turn of queued) if (!first.has(turn.ticketId)) first.set(turn.ticketId, turn);
    const picked = [...first.values()].filter((turn) => turn.notBefore === null || turn.notBefore <= now).slice(0, room);
    const claimed = await claimTurns(app.db, picked.map((x) => x.id), instance);
    for (const turn of picked) if (claimed.has(turn.id)) start(app, { ...turn, attempts: turn.attempts + 1, state: 'running' });
    return queued.length === room * 4 && claimed.size > 0;
  }

  function start(app: AppDeps, turn: Parameters<typeof runTurn>[1]) {
    busy.add(turn.ticketId);
    const p = runTurn(app, turn, abort.signal)
      .catch((err: unknown) => {
        if (!abort.signal.aborted) app.log.error('assistant turn failed', { turnId: turn.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      })
      .finally(() => {
        busy.delete(turn.ticketId);
        running.delete(p);
        wake();
      });
    running.add(p);
  }

  return {
    wake: () => wake(deps?.dialect === 'sqlite'),
    async start(app) {
      deps = app;
      const recovered = await requeueAbandoned(app.db, app.dialect === 'postgres' ? { olderThan: new Date(Date.now() - 2 * app.config.assistants.timeoutMs).toISOString() } : {});
      if (recovered > 0) app.log.info('assistant turns taken again after a restart', { recovered });
      timer = setInterval(wake, opts.pollMs ?? 1_000);
      timer.unref();
      wake();
    },
    async stop() {
      if (timer) clearInterval(timer);
      abort.abort();
      await Promise.allSettled([...running]);
    },
    async idle() {
      for (;;) {
        if (running.size === 0 && !pump.busy && !(deps && (await hasLiveTurns(deps.db)))) return;
        if (running.size > 0) await Promise.allSettled([...running]);
        else await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}
