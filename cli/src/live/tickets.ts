// The tickets a user sees, live, for `tickets watch`: the Replicache client with its SQLite store
// under the config folder, as the web's ticket list reads them (ticket/<id>: open and pending
// tickets the user may see). A poke over the WebSocket makes it pull, so a change shows in well
// under a second.
import type { Ticket } from '@zapdesk/sync';
import { syncPrefix } from '@zapdesk/sync/keys';
import type { Ctx } from '../context.ts';
import type { Api } from '../session.ts';
import { isConnected, openLiveClient, subscribeSynced } from './client.ts';

export type TicketsWatch = { stop(): Promise<void> };

/**
 * `syncing`: only the store's copy so far; `connecting`: the server's copy, the poke socket not yet
 * registered; `live`: kept current by pokes; `offline`: the server stopped answering.
 */
export type LiveState = 'syncing' | 'connecting' | 'live' | 'offline';

/** Newest activity first, as GET /tickets orders them. */
export const byActivity = (a: Ticket, b: Ticket) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id;

/** How often the connection is looked at: a lost socket says nothing, it only stops being open. */
const CHECK_MS = 1_000;

/**
 * Calls `onChange` with every ticket of the view and the view's state whenever either changes.
 * `signal` abandons the setup (the first pull may wait on a slow server): the client is closed and
 * the promise rejects.
 */
export async function watchTickets(ctx: Ctx, api: Api, who: { userId: number; companyId: number }, onChange: (tickets: Ticket[], state: LiveState) => void, signal?: AbortSignal): Promise<TicketsWatch> {
  signal?.throwIfAborted();
  const client = await openLiveClient(ctx, api, who);
  // Closed once, whoever asks first: the abandoned setup, its failure or stop().
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= client.close());
  const abandon = () => void close();
  if (signal?.aborted) abandon();
  else signal?.addEventListener('abort', abandon, { once: true });
  let tickets: Ticket[] = [];
  let synced = false;
  let shown: LiveState | undefined;
  let wasLive = false;
  const stateNow = (): LiveState => {
    if (!synced) return 'syncing';
    if (isConnected(client)) {
      wasLive = true;
      return 'live';
    }
    // Before the socket's first registration the server has answered the pull: not an outage.
    return wasLive || !client.rep.online ? 'offline' : 'connecting';
  };
  const emit = () => onChange(tickets, (shown = stateNow()));
  const unsubscribe = await subscribeSynced(
    client,
    (tx) => tx.scan({ prefix: syncPrefix('ticket') }).values().toArray() as Promise<Ticket[]>,
    (rows, isSynced) => {
      tickets = [...rows].sort(byActivity);
      synced = isSynced;
      emit();
    },
  ).catch(async (err: unknown) => {
    await close();
    throw err;
  });
  signal?.removeEventListener('abort', abandon);
  if (signal?.aborted) {
    unsubscribe();
    await close();
    signal.throwIfAborted();
  }
  const timer = setInterval(() => {
    if (stateNow() !== shown) emit();
  }, CHECK_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      unsubscribe();
      await close();
    },
  };
}
