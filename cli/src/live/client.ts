// The CLI's Replicache client: the SQLite store under the config folder (kept between runs, so a
// view starts from what the last one saw) and pokes over the WebSocket. Pokes carry the updates,
// and the poke socket pulls on every reconnect; a slow pull on a clock covers a poke lost anyway.
// That clock is ours and unref'd: Replicache's own pullInterval timer outlives close() and would
// keep the process alive for up to one interval after the user quits.
import type { SyncClient } from '@zapdesk/sync/replicache';
import { privateStoreFile } from '../config.ts';
import type { Ctx } from '../context.ts';
import type { Api } from '../session.ts';

const SAFETY_PULL_MS = 5_000;

/** Replicache's read transaction, as sync/'s client hands it to a query (replicache is sync/'s dependency, not ours). */
type ReadTx = Parameters<Parameters<SyncClient['rep']['query']>[0]>[0];

export async function openLiveClient(ctx: Ctx, api: Api, who: { userId: number; companyId: number }): Promise<SyncClient> {
  // Loaded only here: better-sqlite3, replicache and ws are not needed by the other commands.
  const { createNodeReplicache } = await import('@zapdesk/sync/node');
  const client = createNodeReplicache({
    api,
    userId: who.userId,
    companyId: who.companyId,
    storeFile: privateStoreFile(ctx.io.env),
    pullInterval: null,
    // Its failures ("Got a non 200 response doing pull") went to the console, over the live table;
    // what they mean is shown as the view's state instead (connectivity below).
    logSinks: [{ log: () => {} }],
  });
  // Back after an outage a pull answers before the poke socket's next try (its backoff grows to
  // 30 s): the socket tries at once, so the view is live again within a pull.
  client.rep.onOnlineChange = (online) => {
    if (online) client.pokes?.wake();
  };
  const timer = setInterval(() => {
    if (!client.rep.closed) client.rep.pull().catch(() => undefined);
  }, SAFETY_PULL_MS);
  timer.unref();
  return {
    ...client,
    async close() {
      clearInterval(timer);
      await client.close();
    },
  };
}

/**
 * Calls `onData` with what `read` finds, now and whenever it changes. `synced` is false while the
 * answer comes only from the store on disk, which holds what the last run saw (a connection
 * CONNECTED then may show a QR now); it is true from the first pull the server answered on.
 */
export async function subscribeSynced<T>(client: SyncClient, read: (tx: ReadTx) => Promise<T>, onData: (value: T, synced: boolean) => void): Promise<() => void> {
  let synced = false;
  const unsubscribe = client.rep.subscribe(read, { onData: (value) => onData(value, synced) });
  await client.rep.pull({ now: true });
  synced = true;
  onData(await client.rep.query(read), synced);
  return unsubscribe;
}

/** The server answers now: the poke socket is registered and the last pull or push got through. */
export function isConnected(client: SyncClient): boolean {
  return (client.pokes?.isOpen() ?? true) && client.rep.online;
}
