// The realtime hub: who is connected here, and the notifier services call after a commit.
// A poke says "pull now" (the socket may attach the answer to that pull, see ws.ts); a spurious one
// costs a cheap no-change pull and a lost one is caught by the client's pullInterval. Pokes are
// coalesced per user over a few ms.
// With PostgreSQL the same calls reach the other instances through the bus (LISTEN/NOTIFY).
import { randomUUID } from 'node:crypto';
import type { Logger } from '../log.ts';
import type { DomainEvent } from '../events/types.ts';
import { createLocalBus, type Bus, type BusMessage } from './bus.ts';

/** Ids of a batch event per bus message: 500 ids of up to 11 characters stay under NOTIFY's 8000 bytes. */
const BUS_BATCH_IDS = 500;

/** What a connected socket must offer the hub. */
export type SyncSocket = {
  companyId: number;
  userId: number;
  sessionId: string;
  send(message: ServerEvent): void;
  close(code: number, reason: string): void;
};

/**
 * Messages the server sends over /sync/ws (`ready`: authenticated and registered, pokes will come;
 * `poke`: pull now, with `pull` the answer to the pull the client would make, computed ahead by the
 * socket (ws.ts); `pull`: the answer to a pull the client sent over the socket, `body` being the
 * protocol's response or, when `ok` is false, the catalogue error's body).
 */
export type ServerEvent =
  | { type: 'ready' }
  | { type: 'poke'; pull?: { request: unknown; response: unknown } }
  | { type: 'auth'; reason: string }
  | { type: 'event'; channel: string; data: unknown }
  | { type: 'pull'; id: number; ok: boolean; body: unknown }
  | { type: 'joined' | 'left'; channel: string }
  | { type: 'error'; channel: string; error: string; message: string };

export type Realtime = {
  /** Every user of the company pulls. Call after the transaction committed. */
  pokeCompany(companyId: number): void;
  /** Only these users of the company pull. */
  pokeUsers(companyId: number, userIds: number[]): void;
  /** Every company's users pull (platform-wide rows). */
  pokeAll(): void;
  /** The connection has new outbox rows: the instance that runs it (maybe another one) dispatches. */
  outboxQueued(connectionId: number): void;
  /** Hears `outboxQueued` from the other instances; returns the unsubscription. */
  onOutboxQueued(handler: (connectionId: number) => void): () => void;
  /** Every socket of the company gets `{type:'event', channel, data}` (the `payment` event); after a commit. */
  companyEvent(companyId: number, channel: string, data: unknown): void;
  /** Writes announced these changes (events/emit.ts): the live channels of every instance hear them; after a commit. */
  entityEvents(events: DomainEvent[]): void;
  /** Hears `entityEvents` from this instance and the others; returns the unsubscription. */
  onEntityEvents(handler: (events: DomainEvent[]) => void): () => void;
  /** The sessions were revoked (e.g. `replaced` by a login elsewhere): their sockets get an `auth` event and close. */
  sessionRevoked(sessionIds: string | string[], reason?: string): void;
  /** The user's last socket on this instance closed at `since`: the other instances hear it (presence.ts). */
  userLeft(companyId: number, userId: number, since: string): void;
  /** Hears `userLeft` from the other instances; returns the unsubscription. */
  onUserLeft(handler: (companyId: number, userId: number, since: string) => void): () => void;
  /** Adds a connected socket; returns its removal. */
  register(socket: SyncSocket): () => void;
  /** Local sockets, for tests and the benchmark. */
  socketCount(): number;
  close(): Promise<void>;
};

/** Close code for a session that may not come back (replaced, revoked, invalid token). */
export const CLOSE_SESSION_ENDED = 4003;
/** Close code for an expired access token: refresh it and reconnect. */
export const CLOSE_TOKEN_EXPIRED = 4001;

export function createRealtime(opts: { log: Logger; bus?: Bus; pokeDelayMs?: number }): Realtime {
  const instance = randomUUID();
  const bus = opts.bus ?? createLocalBus();
  const delay = opts.pokeDelayMs ?? 5;
  const byCompany = new Map<number, Map<number, Set<SyncSocket>>>();
  const bySession = new Map<string, Set<SyncSocket>>();
  // company → users to poke at the next flush (null: all of them)
  const pending = new Map<number, Set<number> | null>();
  let timer: NodeJS.Timeout | undefined;
  const leftHandlers = new Set<(companyId: number, userId: number, since: string) => void>();
  const outboxHandlers = new Set<(connectionId: number) => void>();
  const entityHandlers = new Set<(events: DomainEvent[]) => void>();

  function flush() {
    timer = undefined;
    for (const [companyId, userIds] of pending) {
      const users = byCompany.get(companyId);
      if (!users) continue;
      for (const [userId, sockets] of users) {
        if (userIds && !userIds.has(userId)) continue;
        for (const s of sockets) s.send({ type: 'poke' });
      }
    }
    pending.clear();
  }

  function schedule(companyId: number, userIds?: number[]) {
    if (!byCompany.has(companyId)) return;
    const current = pending.get(companyId);
    if (current === null) return;
    if (!userIds) pending.set(companyId, null);
    else pending.set(companyId, new Set([...(current ?? []), ...userIds]));
    timer ??= setTimeout(flush, delay);
  }

  function endSessions(sessionIds: string[], reason: string) {
    for (const id of sessionIds) {
      for (const s of bySession.get(id) ?? []) {
        s.send({ type: 'auth', reason });
        s.close(CLOSE_SESSION_ENDED, reason);
      }
    }
  }

  function sendEvent(companyId: number, channel: string, data: unknown) {
    for (const sockets of byCompany.get(companyId)?.values() ?? []) for (const s of sockets) s.send({ type: 'event', channel, data });
  }

  function deliver(m: BusMessage) {
    if (m.kind === 'poke') schedule(m.companyId, m.userIds);
    else if (m.kind === 'pokeAll') for (const companyId of byCompany.keys()) schedule(companyId);
    else if (m.kind === 'auth') endSessions(m.sessionIds, m.reason);
    else if (m.kind === 'outbox') for (const h of outboxHandlers) h(m.connectionId);
    else if (m.kind === 'event') sendEvent(m.companyId, m.channel, m.data);
    else if (m.kind === 'entities') for (const h of entityHandlers) h(m.events);
    else if (m.kind === 'presence') for (const h of leftHandlers) h(m.companyId, m.userId, m.since);
    // 'call' and 'reply' are the channels' (channels/remote.ts).
  }
  const unsubscribe = bus.subscribe((m) => {
    if (m.origin !== instance) deliver(m);
  });

  // Local sockets hear at once; the bus carries the same message to the other instances.
  function publish(m: BusMessage) {
    deliver(m);
    bus.publish(m).catch((err: unknown) => opts.log.warn('realtime publish failed', { error: String(err) }));
  }

  return {
    pokeCompany: (companyId) => publish({ origin: instance, kind: 'poke', companyId }),
    pokeUsers: (companyId, userIds) => {
      if (userIds.length) publish({ origin: instance, kind: 'poke', companyId, userIds });
    },
    pokeAll: () => publish({ origin: instance, kind: 'pokeAll' }),
    // Only the other instances: the local outbox was woken directly.
    outboxQueued: (connectionId) => void bus.publish({ origin: instance, kind: 'outbox', connectionId }).catch((err: unknown) => opts.log.warn('realtime publish failed', { error: String(err) })),
    onOutboxQueued(handler) {
      outboxHandlers.add(handler);
      return () => outboxHandlers.delete(handler);
    },
    companyEvent: (companyId, channel, data) => publish({ origin: instance, kind: 'event', companyId, channel, data }),
    entityEvents(events) {
      // Here at once; the other instances only when there are some (a PostgreSQL bus): the webhook
      // hints and a payment's data stay here, the record is read by the instance that sends it.
      for (const h of entityHandlers) h(events);
      if (!opts.bus) return;
      const slim = events.map(({ hooks: _hooks, orderKey: _orderKey, data, ...e }) => (data === undefined ? e : { ...e, data }));
      const send = (list: DomainEvent[]) => void bus.publish({ origin: instance, kind: 'entities', events: list }).catch((err: unknown) => opts.log.warn('realtime publish failed', { error: String(err) }));
      // NOTIFY payloads stop at 8000 bytes: a batch of inbound messages goes in slices of 40, and
      // an import's batch event in slices of its ids (each one message, like a smaller batch).
      let pending: DomainEvent[] = [];
      const flush = () => {
        if (pending.length) send(pending);
        pending = [];
      };
      for (const e of slim) {
        if (!e.batch) {
          pending.push(e);
          if (pending.length === 40) flush();
          continue;
        }
        flush();
        for (let i = 0; i < e.batch.length; i += BUS_BATCH_IDS) {
          const ids = e.batch.slice(i, i + BUS_BATCH_IDS);
          send([{ ...e, id: ids[0]!, batch: ids }]);
        }
      }
      flush();
    },
    onEntityEvents(handler) {
      entityHandlers.add(handler);
      return () => entityHandlers.delete(handler);
    },
    sessionRevoked: (ids, reason = 'replaced') => {
      const sessionIds = Array.isArray(ids) ? ids : [ids];
      if (sessionIds.length) publish({ origin: instance, kind: 'auth', sessionIds, reason });
    },
    userLeft: (companyId, userId, since) => void bus.publish({ origin: instance, kind: 'presence', companyId, userId, since }).catch((err: unknown) => opts.log.warn('realtime publish failed', { error: String(err) })),
    onUserLeft(handler) {
      leftHandlers.add(handler);
      return () => leftHandlers.delete(handler);
    },
    register(socket) {
      let users = byCompany.get(socket.companyId);
      if (!users) byCompany.set(socket.companyId, (users = new Map()));
      let mine = users.get(socket.userId);
      if (!mine) users.set(socket.userId, (mine = new Set()));
      mine.add(socket);
      let session = bySession.get(socket.sessionId);
      if (!session) bySession.set(socket.sessionId, (session = new Set()));
      session.add(socket);
      return () => {
        mine.delete(socket);
        if (mine.size === 0) users.delete(socket.userId);
        if (users.size === 0) byCompany.delete(socket.companyId);
        session.delete(socket);
        if (session.size === 0) bySession.delete(socket.sessionId);
      };
    },
    socketCount: () => [...bySession.values()].reduce((n, s) => n + s.size, 0),
    async close() {
      if (timer) clearTimeout(timer);
      unsubscribe();
      await bus.close();
    },
  };
}
