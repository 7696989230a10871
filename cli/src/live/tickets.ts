// The tickets a user sees, live, for `tickets watch`: the Replicache client with its SQLite store
// under the config folder, as the web's ticket list reads them (ticket/<id>: open and pending
// tickets the user may see). A poke over the WebSocket makes it pull, so a change shows in well
// under a second.
import type { Ticket } from '@zapdesk/sync';
import { syncPrefix } from '@zapdesk/sync/keys';
import type { Ctx } from '../context.ts';
import type { Api } from '../session.ts';
import { openLiveClient, subscribeSynced } from './client.ts';

export type TicketsWatch = { stop(): Promise<void> };

/** Newest activity first, as GET /tickets orders them. */
export const byActivity = (a: Ticket, b: Ticket) => b.updatedAt.localeCompare(a.updatedAt) || b.id - a.id;

/**
 * Calls `onChange` with every ticket of the view whenever one changes; `synced` is false while the
 * data comes only from the local cache (before the first pull has answered).
 */
export async function watchTickets(
  ctx: Ctx,
  api: Api,
  who: { userId: number; companyId: number },
  onChange: (tickets: Ticket[], synced: boolean) => void,
): Promise<TicketsWatch> {
  const client = await openLiveClient(ctx, api, who);
  const unsubscribe = await subscribeSynced(
    client,
    (tx) => tx.scan({ prefix: syncPrefix('ticket') }).values().toArray() as Promise<Ticket[]>,
    (tickets, synced) => onChange([...tickets].sort(byActivity), synced),
  ).catch(async (err: unknown) => {
    await client.close();
    throw err;
  });
  return {
    async stop() {
      unsubscribe();
      await client.close();
    },
  };
}
