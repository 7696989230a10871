// Live refresh for what stays on paginated REST (DESIGN §4: campaigns and reports refresh on a
// poke): the poke socket alone, without a Replicache store or its pulls. The server pokes the
// company after every campaign write and every message sent; each poke (and each reconnect, whose
// missed pokes are lost) asks for one refresh. Refreshes never overlap and come at most every
// MIN_GAP_MS, however many pokes arrive; while the socket is not open (the server is away, or
// `poll` was asked) the view polls every second instead, and a slow safety poll covers a lost poke.
import type { Api } from '../session.ts';

const MIN_GAP_MS = 250;
const POLL_MS = 1_000;
const SAFETY_MS = 5_000;

export type Refresher = {
  /** Whether pokes arrive now (the socket is registered), so the view can say live or polling. */
  live(): boolean;
  stop(): void;
};

/**
 * Calls `refresh` now, on every poke and on the clock until stop(). A refresh that throws is
 * handed to `onError` (the next one retries); `refresh` itself decides when the watch is over.
 */
export async function refreshOnPokes(api: Api, opts: { poll: boolean; refresh: () => Promise<void>; onError: (err: unknown) => void }): Promise<Refresher> {
  let stopped = false;
  let running = false;
  let again = false;
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const run = async () => {
    timer = undefined;
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    last = Date.now();
    try {
      await opts.refresh();
    } catch (err) {
      if (!stopped) opts.onError(err);
    } finally {
      running = false;
    }
    if (again && !stopped) {
      again = false;
      request();
    }
  };
  // Pokes come in bursts (one per message sent): the first one waits out the gap, the rest join it.
  const request = () => {
    if (stopped || timer) return;
    if (running) {
      again = true;
      return;
    }
    timer = setTimeout(() => void run(), Math.max(0, last + MIN_GAP_MS - Date.now()));
  };

  let socket: { isOpen(): boolean; close(): void } | undefined;
  if (!opts.poll) {
    try {
      // Loaded only here: ws is not needed by the other commands.
      const { subscribePokes, nodeSocketFactory } = await import('@zapdesk/sync/node');
      socket = subscribePokes({ api, createSocket: nodeSocketFactory, onPoke: request, onOpen: request });
    } catch {
      socket = undefined; // no socket: the clock below does the work
    }
  }
  const live = () => Boolean(socket?.isOpen());
  const clock = setInterval(() => {
    if (!live() || Date.now() - last >= SAFETY_MS) request();
  }, POLL_MS);
  // Not unref'd: it is what keeps the process up while the watch waits (no socket when polling).
  await run();
  return {
    live,
    stop() {
      stopped = true;
      clearInterval(clock);
      clearTimeout(timer);
      socket?.close();
    },
  };
}
