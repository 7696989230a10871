// The webhooks' worker (README.md): claims due deliveries (each order key's oldest only, so a
// ticket's events arrive in order; up to `concurrency` at once), posts each outside any transaction
// with a deadline, and writes the outcome in one statement: done, queued again after a backoff, or
// failed after the last attempt. It looks again when a write queued rows (the `wake` effect), when
// a post ends, and every second for retries that came due. On start, rows a dead process left
// running are queued again: at least once, with the same event id.
import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { AppDeps } from '../context.ts';
import { write } from '../db/write.ts';
import { createPump } from '../jobs/pump.ts';
import { claimDeliveries, findQueuedDeliveries, hasLiveDeliveries, requeueAbandonedDeliveries, settleDelivery, type ClaimedDelivery, type Outcome } from './deliveries.ts';
import { postDelivery } from './post.ts';
import { assertWebhookTarget, type Resolve, type TargetPolicy } from './target.ts';

export type WebhookWorker = {
  /** A write queued deliveries: look now (after the commit). */
  wake(): void;
  start(deps: AppDeps): Promise<void>;
  /** Stops claiming and aborts the posts under way (their rows are taken again at the next start). */
  stop(): Promise<void>;
  /** Resolves once no delivery is queued or running (tests and benchmarks; retries wait for their time). */
  idle(): Promise<void>;
  /** Refuses a URL this worker would not post to (ERR_WEBHOOK_URL_FORBIDDEN): call before the write that stores it. */
  checkTarget(url: string): Promise<void>;
};

export type WebhookOptions = {
  concurrency: number;
  timeoutMs: number;
  attempts: number;
  backoffMs: number;
  pollMs?: number;
  /** Loopback and private receivers allowed (WEBHOOKS_ALLOW_PRIVATE=1); off, the SSRF guard refuses them. */
  allowPrivate?: boolean;
  /** The resolver of the guard (tests inject one; default: the system's). */
  resolve?: Resolve;
};

/** The wait before attempt n+1: doubling from `backoffMs`, capped at 10 minutes, with some jitter. */
export function backoffOf(opts: Pick<WebhookOptions, 'backoffMs'>, attempts: number): number {
  const base = Math.min(opts.backoffMs * 2 ** Math.max(0, attempts - 1), 10 * 60_000);
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/** Pages of live rows one claim looks through at most (a backlog of held-back rows ahead of due ones). */
const MAX_PAGES = 50;
/** How often rows claimed by an instance that died meanwhile are looked for (PostgreSQL, several instances). */
const RECOVER_EVERY_MS = 10_000;

export function createWebhookWorker(opts: WebhookOptions): WebhookWorker {
  const instance = randomUUID();
  const policy: TargetPolicy = { allowPrivate: opts.allowPrivate ?? false, resolve: opts.resolve };
  const busyKeys = new Set<string>();
  const running = new Set<Promise<void>>();
  const abort = new AbortController();
  // Every post in flight listens to it (up to `concurrency` at once).
  setMaxListeners(0, abort.signal);
  const secrets = new Map<string, string | undefined>();
  let deps: AppDeps | undefined;
  let timer: NodeJS.Timeout | undefined;
  let recoverTimer: NodeJS.Timeout | undefined;
  // Outcomes waiting for their write: the posts that ended in one turn of the event loop are
  // recorded together (one write, not one commit each).
  type Settle = { id: number; state: 'done' | 'failed' | 'queued'; outcome: Outcome; notBefore: string | null; resolve: () => void };
  let settling: Settle[] = [];
  let flushing = false;
  // A finished post frees a slot; the worker claims again once a tenth of its slots are free, so
  // each claim takes several rows (two statements for them all) rather than one at a time.
  const claimBatch = Math.max(1, Math.floor(opts.concurrency / 10));

  function record(id: number, state: Settle['state'], outcome: Outcome, notBefore: string | null = null): Promise<void> {
    return new Promise((resolve) => {
      settling.push({ id, state, outcome, notBefore, resolve });
      if (!flushing) setImmediate(flush);
      flushing = true;
    });
  }

  async function flush() {
    const app = deps!;
    while (settling.length > 0) {
      const batch = settling;
      settling = [];
      try {
        await write(app, async (tx) => {
          for (const s of batch) await settleDelivery(tx.db, s.id, s.state, s.outcome, s.notBefore);
        }, { first: true });
      } catch (err) {
        // Left running: taken again at the next start (at least once).
        app.log.error('webhook outcomes not recorded', { error: err instanceof Error ? err.message : String(err) });
      }
      for (const s of batch) s.resolve();
    }
    flushing = false;
  }

  const pump = createPump({
    pass: () => (deps && !abort.signal.aborted ? claimDue(deps) : Promise.resolve(false)),
    onError: (err) => deps?.log.error('webhook worker failed to claim', { error: err instanceof Error ? err.message : String(err) }),
  });

  function wake() {
    if (deps && !abort.signal.aborted) pump.wake();
  }

  /** Claims and starts what there is room for; true when a full page may hide more due rows. */
  async function claimDue(app: AppDeps): Promise<boolean> {
    const room = opts.concurrency - running.size;
    if (room <= 0) return false;
    const page = room * 4 + busyKeys.size;
    const now = new Date().toISOString();
    // Each order key's oldest live row, if it is queued, due and its key is not under way here.
    // Pages follow one another while they hold nothing to take: the oldest rows may all be held
    // back (their ticket's earlier event is being retried) with due ones further on.
    const seen = new Set<string>();
    const picked: number[] = [];
    let after = 0;
    let full = false;
    for (let pages = 0; pages < MAX_PAGES && picked.length < room; pages++) {
      const live = await findQueuedDeliveries(app.db, page, after);
      for (const d of live) {
        if (seen.has(d.orderKey)) continue;
        seen.add(d.orderKey);
        if (d.state !== 'queued' || busyKeys.has(d.orderKey) || (d.notBefore !== null && d.notBefore > now)) continue;
        picked.push(d.id);
        if (picked.length === room) break;
      }
      full = live.length === page;
      if (!full) break;
      after = live.at(-1)!.id;
    }
    const claimed = await claimDeliveries(app.db, picked, instance);
    for (const d of claimed) start(app, d);
    return full && claimed.length > 0;
  }

  function secretOf(app: AppDeps, sealed: string): string | undefined {
    if (!secrets.has(sealed)) secrets.set(sealed, app.secrets.open(sealed));
    return secrets.get(sealed);
  }

  async function run(app: AppDeps, d: ClaimedDelivery) {
    const secret = secretOf(app, d.secret);
    if (secret === undefined) return record(d.id, 'failed', { responseStatus: null, durationMs: 0, error: 'the signing secret cannot be opened with this data key' });
    const outcome = await postDelivery({ ...d, secret }, opts.timeoutMs, abort.signal, policy);
    // Stopping: the row stays running and is taken again at the next start.
    if (abort.signal.aborted) return;
    const { ok, permanent, ...result } = outcome;
    if (ok) await record(d.id, 'done', result);
    else if (permanent || d.attempts >= opts.attempts) await record(d.id, 'failed', result);
    else await record(d.id, 'queued', result, new Date(Date.now() + backoffOf(opts, d.attempts)).toISOString());
  }

  function start(app: AppDeps, d: ClaimedDelivery) {
    busyKeys.add(d.orderKey);
    const p = run(app, d)
      .catch((err: unknown) => {
        if (!abort.signal.aborted) app.log.error('webhook delivery failed', { deliveryId: d.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      })
      .finally(() => {
        busyKeys.delete(d.orderKey);
        running.delete(p);
        if (opts.concurrency - running.size >= claimBatch || running.size === 0) wake();
      });
    running.add(p);
  }

  return {
    wake,
    checkTarget: (url) => assertWebhookTarget(url, policy),
    async start(app) {
      deps = app;
      // PostgreSQL: another live instance may be posting; only rows claimed long ago are its dead ones.
      const recovered = await requeueAbandonedDeliveries(app.db, app.dialect === 'postgres' ? { olderThan: new Date(Date.now() - 2 * opts.timeoutMs).toISOString() } : {});
      if (recovered > 0) app.log.info('webhook deliveries taken again after a restart', { recovered });
      timer = setInterval(wake, opts.pollMs ?? 1_000);
      timer.unref();
      // PostgreSQL: a row this start spared (claimed lately, maybe by a live instance) whose claimer
      // died is taken again once it is older than two deadlines: no live post lasts that long.
      if (app.dialect === 'postgres') {
        recoverTimer = setInterval(() => {
          requeueAbandonedDeliveries(app.db, { olderThan: new Date(Date.now() - 2 * opts.timeoutMs).toISOString() })
            .then((n) => {
              if (n > 0) {
                app.log.info('webhook deliveries of a dead instance taken again', { recovered: n });
                wake();
              }
            })
            .catch((err: unknown) => app.log.warn('webhook recovery failed', { error: String(err) }));
        }, Math.min(RECOVER_EVERY_MS, opts.timeoutMs));
        recoverTimer.unref();
      }
      wake();
    },
    async stop() {
      if (timer) clearInterval(timer);
      if (recoverTimer) clearInterval(recoverTimer);
      abort.abort();
      await Promise.allSettled([...running]);
    },
    async idle() {
      for (;;) {
        if (running.size === 0 && !pump.busy && !(deps && (await hasLiveDeliveries(deps.db)))) return;
        if (running.size > 0) await Promise.allSettled([...running]);
        else await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}
