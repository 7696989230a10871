// The Replicache client factory shared by web and CLI: one cache per user (`name: company:user`),
// pull and push through the API client (so the token refresh rules apply), the shared mutators,
// pokes over /sync/ws (applying the answer a poke brings with Replicache's poke(), pinned 15.3.0,
// where it is marked experimental), and a slow pullInterval as the fallback when a poke is lost.
// Back online it pushes and pulls at once instead of waiting out Replicache's backoff (DESIGN §12,
// replicache-catch-up.ts): on the `online` event, when the poke socket (re)opens, and when the user
// makes a mutation after a failed push.
// Browser: the default IndexedDB store. Node: pass the store and socket from '@zapdesk/sync/node'.
import { Replicache, type KVStoreProvider, type LogLevel, type LogSink, type PullResponseV1, type Puller, type Pusher, type PushResponse, type ReadonlyJSONValue, type ReadTransaction } from 'replicache';
import { AppError } from './errors.ts';
import type { ApiClient } from './client.ts';
import type { MutationError } from './domain/sync.ts';
import { syncPrefix } from './keys.ts';
import { mutators, type M } from './mutators.ts';
import { defaultOnlineEvents, isRetryableFailure, listenOnline, onInitialMutation, type OnlineEvents } from './replicache-catch-up.ts';
import { subscribePokes, type BroughtPull, type WebSocketFactory, type WebSocketLike } from './replicache-pokes.ts';

export type { M } from './mutators.ts';
export type { OnlineEvents } from './replicache-catch-up.ts';
export type ZapReplicache = Replicache<M>;

export type CreateReplicacheOptions = {
  api: ApiClient;
  userId: number;
  companyId: number;
  kvStore?: 'idb' | 'mem' | KVStoreProvider;
  /** Fallback polling in ms (default 60 s); null to rely on pokes alone. */
  pullInterval?: number | null;
  /** Opens the poke socket; default the global WebSocket; null for no pokes. */
  createSocket?: WebSocketFactory | null;
  /** The session ended elsewhere (`replaced`: "the account was accessed on another computer"). */
  onAuth?: (reason: string) => void;
  /** The server lost this client's state: the app should recreate the Replicache (the default reloads a browser page). */
  onClientStateNotFound?: () => void;
  /** Where the `online` event comes from: default the global object in a browser; null for none. */
  onlineEvents?: OnlineEvents | null;
  logLevel?: LogLevel;
  /** Where Replicache's log lines go (default the console): a terminal view draws its own screen. */
  logSinks?: LogSink[];
};

export type SyncClient = {
  rep: ZapReplicache;
  pokes: ReturnType<typeof subscribePokes> | undefined;
  /**
   * Calls `listener` on every poke (and when the socket is back after a drop): something this user
   * sees changed. For what stays on paginated REST (DESIGN §4: refresh on poke). Returns the removal.
   */
  onPoke(listener: () => void): () => void;
  /** Calls `listener` on every non-data event of the company (`payment`). Returns the removal. */
  onEvent(listener: (channel: string, data: unknown) => void): () => void;
  close(): Promise<void>;
};

const OK = { httpStatusCode: 200, errorMessage: '' };

function failure(err: unknown) {
  if (err instanceof AppError) return { httpRequestInfo: { httpStatusCode: err.status, errorMessage: `${err.code}: ${err.message}` } };
  // A network failure: Replicache retries with its own backoff.
  return { httpRequestInfo: { httpStatusCode: 0, errorMessage: err instanceof Error ? err.message : String(err) } };
}

function defaultSocketFactory(): WebSocketFactory | null {
  const WS = (globalThis as { WebSocket?: new (url: string) => WebSocketLike }).WebSocket;
  return WS ? (url) => new WS(url) : null;
}

export function createReplicache(opts: CreateReplicacheOptions): SyncClient {
  const { api } = opts;
  // close() cuts a pull under way: one the server is slow to answer must not keep a closed client
  // (and a CLI process) waiting for an answer nobody will read. A push under way is left to finish:
  // it carries what the user wrote.
  const closing = new AbortController();
  const { signal } = closing;
  // On the open poke socket when there is one (after a poke, the cheap way for both ends); any
  // failure there is retried over HTTP, whose rules (token refresh, sign-out) then decide.
  const puller: Puller = async (req) => {
    if (pokes?.isOpen()) {
      try {
        return { response: (await pokes.pull(req)) as PullResponseV1, httpRequestInfo: OK };
      } catch {
        // fall through to HTTP
      }
    }
    try {
      return { response: await api.post<PullResponseV1>('/sync/pull', req, { signal }), httpRequestInfo: OK };
    } catch (err) {
      return failure(err);
    }
  };
  const postPush = async (req: Parameters<Pusher>[0]) => {
    try {
      const body = await api.post<Partial<PushResponse> | undefined>('/sync/push', req);
      return { response: body?.error ? (body as PushResponse) : undefined, httpRequestInfo: OK };
    } catch (err) {
      return failure(err);
    }
  };
  // Whether the last push failed in a way a retry may fix: Replicache is then backing off.
  let lastPushFailed = false;
  const pusher: Pusher = async (req) => {
    const result = await postPush(req);
    lastPushFailed = isRetryableFailure(result.httpRequestInfo.httpStatusCode);
    return result;
  };
  // A push with nothing pending sends no request (Replicache returns before calling the pusher),
  // so catching up needs no check. Both reject when cut short by close(); Replicache retries alone.
  const pushNow = () => {
    if (!rep.closed) rep.push({ now: true }).catch(() => {});
  };
  const catchUp = () => {
    if (rep.closed) return;
    pushNow();
    rep.pull({ now: true }).catch(() => {});
  };
  // The user acts after a failed push: one push at once (the network may well be back) rather than
  // the mutation waiting for the backoff; its outcome sets the flag again.
  const onMutation = () => {
    if (!lastPushFailed) return;
    lastPushFailed = false;
    pushNow();
  };

  const rep = new Replicache<M>({
    name: `${opts.companyId}:${opts.userId}`,
    mutators: onInitialMutation(mutators, onMutation),
    puller,
    pusher,
    kvStore: opts.kvStore,
    pullInterval: opts.pullInterval === undefined ? 60_000 : opts.pullInterval,
    logLevel: opts.logLevel ?? 'error',
    logSinks: opts.logSinks,
  });
  if (opts.onClientStateNotFound) rep.onClientStateNotFound = opts.onClientStateNotFound;

  const createSocket = opts.createSocket === undefined ? defaultSocketFactory() : opts.createSocket;
  // A pull cut short by close() rejects; nothing waits for it.
  const pull = () => {
    if (!rep.closed) rep.pull().catch(() => {});
  };
  // Answers brought by pokes are applied one after the other (each starts from the cookie the one
  // before leaves) with Replicache's poke(), which checks that the answer starts from the client's
  // cookie; one that does not (the client pulled elsewhere meanwhile) or fails is replaced by a pull.
  let applying = Promise.resolve();
  const apply = (brought: BroughtPull) => {
    applying = applying.then(async () => {
      if (rep.closed) return;
      try {
        if ((await rep.clientGroupID) !== brought.request.clientGroupID) throw new Error('another client group');
        await rep.poke({ baseCookie: brought.request.cookie as ReadonlyJSONValue, pullResponse: brought.response as PullResponseV1 });
      } catch {
        pull();
      }
    });
  };
  // Declared after the Replicache whose puller reads it: the first pull comes after this line ran.
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  const onPoke = (brought?: BroughtPull) => {
    if (brought) apply(brought);
    else pull();
    notify();
  };
  // The socket is (back) up: the network is too, and the pokes sent meanwhile are lost.
  const onOpen = () => {
    catchUp();
    notify();
  };
  const eventListeners = new Set<(channel: string, data: unknown) => void>();
  const onEvent = (channel: string, data: unknown) => {
    for (const listener of eventListeners) listener(channel, data);
  };
  const pokes = createSocket ? subscribePokes({ api, createSocket, onPoke, onOpen, onAuth: opts.onAuth, onEvent }) : undefined;
  const stopOnline = listenOnline(opts.onlineEvents === undefined ? defaultOnlineEvents() : opts.onlineEvents, () => {
    pokes?.wake();
    catchUp();
  });

  return {
    rep,
    pokes,
    onPoke(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    onEvent(listener) {
      eventListeners.add(listener);
      return () => void eventListeners.delete(listener);
    },
    async close() {
      stopOnline();
      listeners.clear();
      eventListeners.clear();
      pokes?.close();
      closing.abort();
      await rep.close();
    },
  };
}

/** The mutation errors the server recorded for this client group, newest first. */
export async function listMutationErrors(tx: ReadTransaction): Promise<MutationError[]> {
  const rows = (await tx.scan({ prefix: syncPrefix('mutationError') }).values().toArray()) as MutationError[];
  return rows.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.mutationID - a.mutationID);
}
