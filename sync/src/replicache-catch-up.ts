// Back online, push at once (DESIGN §12). Replicache retries a failed push with exponential
// backoff (30 ms doubling up to 60 s) and wakes up for nothing else: a reply typed after 30 s
// offline, or while the network is already back, waited up to a minute. Replicache 15 does not
// listen to the browser's `online` event either. These are the pieces the factory
// (replicache.ts) wires to `rep.push({ now: true })`, which skips pushDelay and the backoff: the
// `online` event, a failed push followed by a new mutation (the socket's reopening comes from
// replicache-pokes.ts). A push with nothing pending is free: Replicache reads its pending list
// first and returns without calling the pusher, so none of them checks for pending mutations.
import type { WriteTransaction } from 'replicache';

/** Where the browser's `online` event comes from: `window` by default; tests pass their own. */
export type OnlineEvents = {
  addEventListener(type: 'online', listener: () => void): void;
  removeEventListener(type: 'online', listener: () => void): void;
};

/** The global object when it is an event target (a browser); Node 20's global is not. */
export function defaultOnlineEvents(): OnlineEvents | null {
  const g = globalThis as Partial<OnlineEvents>;
  return typeof g.addEventListener === 'function' && typeof g.removeEventListener === 'function' ? (g as OnlineEvents) : null;
}

/** Calls `onOnline` on every `online` event; returns the removal. */
export function listenOnline(events: OnlineEvents | null, onOnline: () => void): () => void {
  if (!events) return () => {};
  events.addEventListener('online', onOnline);
  return () => events.removeEventListener('online', onOnline);
}

/**
 * A push that failed for a reason a retry may fix: the network (the pusher reports status 0) or
 * the server (5xx). A 4xx (a signed-out user, a bad request) is not retried any sooner.
 */
export function isRetryableFailure(httpStatusCode: number): boolean {
  return httpStatusCode === 0 || httpStatusCode >= 500;
}

type Mutator = (tx: WriteTransaction, args: never) => Promise<unknown>;

/**
 * The same mutators, each calling `onMutation` after it ran for a call of the app
 * (`tx.reason === 'initial'`), never for the replays Replicache runs when it rebases on a pull.
 * The call comes inside Replicache's write lock, so a push it starts reads the pending list after
 * this mutation has been committed.
 */
export function onInitialMutation<T extends Record<string, Mutator>>(mutators: T, onMutation: () => void): T {
  const watched: Record<string, Mutator> = {};
  for (const [name, run] of Object.entries(mutators)) {
    watched[name] = async (tx, args) => {
      const result = await run(tx, args);
      if (tx.reason === 'initial') onMutation();
      return result;
    };
  }
  return watched as T;
}
