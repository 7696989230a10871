// The reads the read worker answers (README.md): each runs on a handle that only reads and answers
// JSON text, so the thread that asked sends it as it is. The same functions run on the writer's
// thread when there is no worker (tests, an in-memory database) or while it starts.
import type { TicketListQuery } from '@zapdesk/sync';
import type { Cookie } from 'replicache';
import type { Actor } from '../context.ts';
import type { Database, Dialect } from '../db/database.ts';
import { findTicketsPage } from '../modules/tickets/queries.ts';
import type { IndexQueued } from '../modules/tickets/search.ts';
import { loadViewer } from '../modules/tickets/visibility.ts';
import type { SyncService } from '../sync/service.ts';

/**
 * What a read runs on: a handle (read-only on the worker), a sync service, and the one write a read
 * needs besides a pull's, the search index's catch-up (made where the writer is).
 */
export type ReadDeps = { db: Database; dialect: Dialect; sync: SyncService; indexQueued: IndexQueued };

/** A read's answer: its JSON text, and for a pull the cookie it answered with (the poke socket remembers it). */
export type ReadAnswer = { text: string; cookie?: Cookie };

export const readTasks = {
  /** A sync pull of a bearer of `token` (sync/service.ts: the token, the protocol version, the pull). */
  async pull(deps: ReadDeps, args: { token: string | null | undefined; body: unknown }): Promise<ReadAnswer> {
    const response = await deps.sync.pull(args.token, args.body);
    return { text: JSON.stringify(response), cookie: 'cookie' in response ? response.cookie : undefined };
  },

  /** GET /tickets for a signed-in actor: a page of the list, search included. */
  async ticketsPage(deps: ReadDeps, args: { actor: Actor; query: TicketListQuery }): Promise<ReadAnswer> {
    const viewer = await loadViewer(deps.db, args.actor);
    return { text: JSON.stringify(await findTicketsPage(deps.db, deps.dialect, viewer, args.query, deps.indexQueued)) };
  },
} satisfies Record<string, (deps: ReadDeps, args: never) => Promise<ReadAnswer>>;

export type ReadTaskName = keyof typeof readTasks;
export type ReadArgs<K extends ReadTaskName> = Parameters<(typeof readTasks)[K]>[1];

/** Runs a read on these deps (a name and arguments that came as a message are trusted: they came from this process). */
export function runReadTask<K extends ReadTaskName>(deps: ReadDeps, name: K, args: ReadArgs<K>): Promise<ReadAnswer> {
  return (readTasks[name] as (deps: ReadDeps, args: ReadArgs<K>) => Promise<ReadAnswer>)(deps, args);
}
