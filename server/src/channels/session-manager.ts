// The session manager: one live Channel per started connection. It starts sessions at boot and on
// demand, mirrors every status/QR change into the whatsapps row and hands inbound messages and acks
// to whoever subscribed (the inbound pipeline). A status change is a write like any other (DESIGN
// §12): it goes through the app's `write`, bumps the row's version and pokes the company as an
// effect of that write, so a failed status write pokes nobody.
import { AppError } from '@zapdesk/sync';
import { change, emit } from '../events/emit.ts';
import type { Updateable } from 'kysely';
import { nowIso, type Database } from '../db/database.ts';
import type { Whatsapps } from '../db/schema.ts';
import { tenant } from '../db/tenant.ts';
import type { Tx } from '../db/write.ts';
import type { Logger } from '../log.ts';
import { createAuthStore, type AuthStore } from './auth-store.ts';
import type { Leases } from './lease.ts';
import type { SimulatorNetwork } from './simulator/network.ts';
import type { Ack, Channel, ConnectionStatus, InboundMessage, MessageChange, Peer } from './types.ts';

/** Builds an adapter for one connection; the store keeps its credentials in the database. */
export type AdapterFactory = (
  connection: { id: number; companyId: number; provider: string },
  store: AuthStore,
  onListenerError: (event: string, err: unknown) => void,
) => Channel;

export type InboundEvent = { connectionId: number; companyId: number; message: InboundMessage };
export type AckEvent = { connectionId: number; companyId: number; id: string; ack: Ack; to?: Peer };
export type ChangeEvent = { connectionId: number; companyId: number; change: MessageChange };
export type StatusEvent = { connectionId: number; companyId: number; status: ConnectionStatus; reason?: string };
type Listener<T> = (event: T) => void | Promise<void>;
/** The app's write path (`(fn) => write(deps, fn)`): the manager is no request, but writes as one. */
export type WriteFn = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;

export type SessionManager = {
  /** Boot: starts every connection that was live (CONNECTED, OPENING, PAIRING, qrcode) when the server stopped. */
  startAll(): Promise<void>;
  /** Starts (or keeps) the session: a QR when unpaired, straight to CONNECTED with stored credentials. */
  start(companyId: number, connectionId: number, opts?: { pairingCodeFor?: string }): Promise<void>;
  /** Forgets the pairing and starts again, so a new QR shows. */
  renewQr(companyId: number, connectionId: number): Promise<void>;
  /**
   * Forgets the pairing and starts again asking the network for a code to type on the phone of
   * `number` (the QR shows too); resolves with the code, ERR_WAPP_NOT_INITIALIZED when none came.
   */
  requestPairingCode(companyId: number, connectionId: number, number: string): Promise<string>;
  /** The pairing code shown for the connection, while it waits for the phone. */
  pairingCode(connectionId: number): string | undefined;
  /** Unpairs: credentials wiped, status DISCONNECTED; the session stays down until started again. */
  logout(companyId: number, connectionId: number): Promise<void>;
  /** The connection row is gone: end its session without writing to it. */
  forget(connectionId: number): Promise<void>;
  /** Shutdown: closes sockets but keeps statuses, so the next boot reconnects. */
  stopAll(): Promise<void>;
  getChannel(connectionId: number): Channel | undefined;
  /** Resolves when the status writes queued so far for the connection are committed. */
  flush(connectionId: number): Promise<void>;
  onInbound(listener: Listener<InboundEvent>): () => void;
  onAck(listener: Listener<AckEvent>): () => void;
  /** Edits and revokes of delivered messages. */
  onChange(listener: Listener<ChangeEvent>): () => void;
  onStatus(listener: Listener<StatusEvent>): () => void;
  /** Renews held leases and takes over connections whose instance died; runs on a timer after startAll. */
  heartbeat(): Promise<void>;
  readonly simulator: SimulatorNetwork;
};

const LIVE: ConnectionStatus[] = ['CONNECTED', 'OPENING', 'PAIRING', 'qrcode'];
/** How long a pairing-code request waits for WhatsApp's code. */
const PAIRING_CODE_WAIT_MS = 15_000;

export function createSessionManager(deps: {
  db: Database;
  log: Logger;
  simulator: SimulatorNetwork;
  factories: Record<string, AdapterFactory>;
  /** Runs each status write in its own transaction; the sync poke is that write's effect. */
  write: WriteFn;
  /** Several instances on one PostgreSQL: a connection runs where its lease is held. */
  leases?: Leases;
  heartbeatMs?: number;
}): SessionManager {
  const { db, log } = deps;
  const sessions = new Map<number, { channel: Channel; companyId: number; detach: () => void }>();
  const writes = new Map<number, Promise<void>>();
  const codes = new Map<number, string>();
  const codeWaiters = new Map<number, (code: string) => void>();
  let heartbeatTimer: NodeJS.Timeout | undefined;
  const listeners = {
    inbound: new Set<Listener<InboundEvent>>(),
    ack: new Set<Listener<AckEvent>>(),
    change: new Set<Listener<ChangeEvent>>(),
    status: new Set<Listener<StatusEvent>>(),
  };

  const subscribe = <T>(set: Set<Listener<T>>, l: Listener<T>) => {
    set.add(l);
    return () => void set.delete(l);
  };
  const dispatch = async <T>(set: Set<Listener<T>>, event: T, name: string) => {
    const results = await Promise.allSettled([...set].map(async (l) => l(event)));
    for (const r of results) if (r.status === 'rejected') log.error('channel listener failed', { event: name, error: String(r.reason?.stack ?? r.reason) });
  };

  /** Status writes of one connection run in order, so a late QR never overwrites CONNECTED. */
  const persist = (companyId: number, connectionId: number, values: Updateable<Whatsapps>) => {
    const run = () =>
      deps.write(async (tx) => {
        await tenant(tx.db, companyId)
          .updateTable('whatsapps')
          .set((eb) => ({ ...values, updatedAt: nowIso(), version: eb('version', '+', 1) }))
          .where('id', '=', connectionId)
          .execute();
        tx.effects.poke(companyId);
        await emit(tx, change(companyId, 'whatsappSession', 'update', connectionId));
      });
    const next = (writes.get(connectionId) ?? Promise.resolve()).then(run).catch((err) => log.error('connection status write failed', { connectionId, error: String(err) }));
    writes.set(connectionId, next);
    return next;
  };

  const attach = (channel: Channel, companyId: number) => {
    const id = channel.connectionId;
    const offs = [
      channel.on('qr', (qr, attempt) => void persist(companyId, id, { status: 'qrcode', qrcode: qr, retries: Math.max(0, attempt - 1) })),
      channel.on('pairingCode', (code) => {
        codes.set(id, code);
        codeWaiters.get(id)?.(code);
      }),
      channel.on('status', (status, detail) => {
        if (status !== 'qrcode') codes.delete(id);
        const values: Updateable<Whatsapps> = { status };
        if (status !== 'qrcode') values.qrcode = '';
        if (status === 'CONNECTED') values.retries = 0;
        if (status === 'OPENING' && detail?.attempt !== undefined) values.retries = detail.attempt;
        if (detail?.number) values.number = detail.number;
        void persist(companyId, id, values);
        void dispatch(listeners.status, { connectionId: id, companyId, status, ...(detail?.reason ? { reason: detail.reason } : {}) }, 'status');
      }),
      channel.on('message', (message) => dispatch(listeners.inbound, { connectionId: id, companyId, message }, 'inbound')),
      channel.on('ack', (update) => dispatch(listeners.ack, { connectionId: id, companyId, ...update }, 'ack')),
      channel.on('change', (change) => dispatch(listeners.change, { connectionId: id, companyId, change }, 'change')),
      // A missed call reaches the pipeline as a message of mediaType call_log: one path, idempotent by id.
      channel.on('call', (call) =>
        dispatch(listeners.inbound, {
          connectionId: id,
          companyId,
          message: { id: call.id, from: call.from, fromMe: false, timestamp: call.timestamp, mediaType: 'call_log', body: call.video ? 'Chamada de vídeo perdida' : 'Chamada de voz perdida' },
        }, 'inbound'),
      ),
    ];
    return () => offs.forEach((off) => off());
  };

  const findConnection = async (companyId: number, connectionId: number) => {
    const row = await tenant(db, companyId).selectFrom('whatsapps').select(['id', 'provider']).where('id', '=', connectionId).executeTakeFirst();
    if (!row) throw new AppError('ERR_NO_WAPP_FOUND');
    return row;
  };

  /**
   * Commands that wipe or rewrite a connection's pairing run only where its session runs: on another
   * instance's lease they are refused before anything is touched (commands are not forwarded).
   */
  const claimHere = async (companyId: number, connectionId: number) => {
    if (deps.leases && !(await deps.leases.claim(companyId, connectionId))) {
      throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'This connection runs on another server instance.');
    }
  };

  /** Ends a session without persisting anything: its listeners are detached first. */
  const drop = async (connectionId: number, how: 'disconnect' | 'logout') => {
    const session = sessions.get(connectionId);
    if (!session) return;
    sessions.delete(connectionId);
    session.detach();
    await session.channel[how]().catch((err) => log.warn('closing a session failed', { connectionId, error: String(err) }));
  };

  const manager: SessionManager = {
    simulator: deps.simulator,
    getChannel: (connectionId) => sessions.get(connectionId)?.channel,
    flush: async (connectionId) => {
      // A write may queue another (a status listener); wait until the chain is quiet.
      let current: Promise<void> | undefined;
      while (current !== writes.get(connectionId)) {
        current = writes.get(connectionId);
        await current;
      }
    },
    onInbound: (l) => subscribe(listeners.inbound, l),
    onAck: (l) => subscribe(listeners.ack, l),
    onChange: (l) => subscribe(listeners.change, l),
    onStatus: (l) => subscribe(listeners.status, l),

    pairingCode: (connectionId) => (sessions.get(connectionId)?.channel.status() === 'qrcode' ? codes.get(connectionId) : undefined),

    async requestPairingCode(companyId, connectionId, number) {
      await findConnection(companyId, connectionId);
      await claimHere(companyId, connectionId);
      await drop(connectionId, 'disconnect');
      codes.delete(connectionId);
      await createAuthStore(db, companyId, connectionId).wipe();
      await persist(companyId, connectionId, { status: 'OPENING', qrcode: '', retries: 0, number: null });
      let timer: NodeJS.Timeout | undefined;
      const code = new Promise<string>((resolve, reject) => {
        timer = setTimeout(() => reject(new AppError('ERR_WAPP_NOT_INITIALIZED', 'WhatsApp issued no pairing code; try again.')), PAIRING_CODE_WAIT_MS);
        codeWaiters.set(connectionId, resolve);
      });
      code.catch(() => undefined); // awaited below only when the start succeeded
      try {
        await manager.start(companyId, connectionId, { pairingCodeFor: number });
        return await code;
      } finally {
        clearTimeout(timer);
        codeWaiters.delete(connectionId);
      }
    },

    async start(companyId, connectionId, opts) {
      const row = await findConnection(companyId, connectionId);
      const current = sessions.get(connectionId);
      if (current && LIVE.includes(current.channel.status())) return manager.flush(connectionId);
      await claimHere(companyId, connectionId);
      await drop(connectionId, 'disconnect');
      const factory = deps.factories[row.provider];
      if (!factory) throw new AppError('ERR_WAPP_NOT_INITIALIZED', `No channel adapter for provider "${row.provider}".`);
      const onListenerError = (event: string, err: unknown) => log.error('channel listener failed', { connectionId, event, error: String(err) });
      const channel = factory({ id: connectionId, companyId, provider: row.provider }, createAuthStore(db, companyId, connectionId), onListenerError);
      sessions.set(connectionId, { channel, companyId, detach: attach(channel, companyId) });
      try {
        await channel.connect(opts);
      } catch (err) {
        log.error('session start failed', { connectionId, error: String(err) });
        await persist(companyId, connectionId, { status: 'DISCONNECTED', qrcode: '' });
        await drop(connectionId, 'disconnect');
        throw err instanceof AppError ? err : new AppError('ERR_WAPP_NOT_INITIALIZED');
      }
      await manager.flush(connectionId);
    },

    async renewQr(companyId, connectionId) {
      await findConnection(companyId, connectionId);
      await claimHere(companyId, connectionId);
      await drop(connectionId, 'disconnect');
      await createAuthStore(db, companyId, connectionId).wipe();
      await persist(companyId, connectionId, { status: 'OPENING', qrcode: '', retries: 0, number: null });
      await manager.start(companyId, connectionId);
    },

    async logout(companyId, connectionId) {
      await findConnection(companyId, connectionId);
      await claimHere(companyId, connectionId);
      await drop(connectionId, 'logout');
      // Wiped here too: a session that was not running may still hold stored credentials.
      await createAuthStore(db, companyId, connectionId).wipe();
      await persist(companyId, connectionId, { status: 'DISCONNECTED', qrcode: '', retries: 0 });
    },

    forget: (connectionId) => drop(connectionId, 'logout'),

    async stopAll() {
      if (heartbeatTimer) clearInterval(heartbeatTimer);
      heartbeatTimer = undefined;
      const held = [...sessions.entries()].map(([connectionId, s]) => ({ connectionId, companyId: s.companyId }));
      await Promise.all([...sessions.keys()].map((id) => drop(id, 'disconnect')));
      await Promise.all([...writes.values()]);
      await deps.leases?.release(held).catch((err) => log.warn('releasing leases failed', { error: String(err) }));
    },

    async heartbeat() {
      if (!deps.leases) return;
      const held = [...sessions.entries()].map(([connectionId, s]) => ({ connectionId, companyId: s.companyId }));
      // Lost means another instance took it over after our lease lapsed: we must stop talking.
      for (const id of await deps.leases.renew(held)) await drop(id, 'disconnect');
      await startLive((row) => !sessions.has(row.id) && (row.leaseExpiresAt === null || Date.parse(row.leaseExpiresAt) < Date.now()));
    },

    async startAll() {
      await startLive(() => true);
      if (deps.leases && !heartbeatTimer) {
        heartbeatTimer = setInterval(() => void manager.heartbeat().catch((err) => log.warn('lease heartbeat failed', { error: String(err) })), deps.heartbeatMs ?? 10_000);
        heartbeatTimer.unref?.();
      }
    },
  };

  /** Starts the live connections the filter picks, company by company (every query through tenant()). */
  async function startLive(pick: (row: { id: number; leaseExpiresAt: string | null }) => boolean) {
    const companies = await db.selectFrom('companies').select('id').execute();
    for (const company of companies) {
      const rows = await tenant(db, company.id).selectFrom('whatsapps').select(['id', 'leaseExpiresAt']).where('status', 'in', LIVE).execute();
      for (const row of rows.filter(pick)) {
        // One failing connection must not keep the others down.
        await manager.start(company.id, row.id).catch((err) => log.warn('session not started', { connectionId: row.id, error: String(err) }));
      }
    }
  }
  return manager;
}
