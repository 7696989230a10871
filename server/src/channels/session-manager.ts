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
import type { Logger } from '../log.ts';
import { createAuthStore } from './auth-store.ts';
import { createRouting } from './holder.ts';
import type { Leases } from './lease.ts';
import type { RemoteCalls } from './remote.ts';
import { createRemoteChannels } from './remote-channel.ts';
import type { AckEvent, AdapterFactory, ChangeEvent, InboundEvent, Listener, SessionManager, StatusEvent, WriteFn } from './session-types.ts';
import { createSimulatorControls } from './simulator/controls.ts';
import type { SimulatorNetwork } from './simulator/network.ts';
import type { Channel, ConnectionStatus } from './types.ts';

export type { AckEvent, AdapterFactory, ChangeEvent, InboundEvent, SessionManager, StatusEvent, WriteFn } from './session-types.ts';

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
  /** Calls to the other instances over the bus; its `self` is the leases' owner. */
  remote?: RemoteCalls;
  heartbeatMs?: number;
}): SessionManager {
  const { db, log } = deps;
  const sessions = new Map<number, { channel: Channel; companyId: number; detach: () => void }>();
  const writes = new Map<number, Promise<void>>();
  const codes = new Map<number, string>();
  const codeWaiters = new Map<number, (code: string) => void>();
  let heartbeatTimer: NodeJS.Timeout | undefined;
  const routing = createRouting({ db, leases: deps.leases, remote: deps.remote, isHere: (id) => sessions.has(id) });
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
        // A connection being deleted keeps the status its delete wrote: its session is ending.
        await tenant(tx.db, companyId)
          .updateTable('whatsapps')
          .set((eb) => ({ ...values, updatedAt: nowIso(), version: eb('version', '+', 1) }))
          .where('id', '=', connectionId)
          .where('deletingSince', 'is', null)
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

  /** One being deleted refuses every command: a session started while its keys go would pair over what is left. */
  const findConnection = async (companyId: number, connectionId: number) => {
    const row = await tenant(db, companyId).selectFrom('whatsapps').select(['id', 'provider', 'deletingSince']).where('id', '=', connectionId).executeTakeFirst();
    if (!row) throw new AppError('ERR_NO_WAPP_FOUND');
    if (row.deletingSince !== null) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'This connection is being deleted: delete it again to finish.');
    return row;
  };

  /**
   * Commands that wipe or rewrite a connection's pairing run only where its session runs: routed to
   * the holder (holder.ts), they still check here, so a lease that moved meanwhile refuses them
   * before anything is touched.
   */
  const claimHere = async (companyId: number, connectionId: number) => {
    if (deps.leases && !(await deps.leases.claim(companyId, connectionId))) {
      throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'This connection runs on another server instance.');
    }
  };

  /** Ends a session without persisting anything: its listeners are detached first. `unpair`: a logout keeping the stored keys. */
  const drop = async (connectionId: number, how: 'disconnect' | 'logout' | 'unpair') => {
    const session = sessions.get(connectionId);
    if (!session) return;
    sessions.delete(connectionId);
    session.detach();
    const closing = how === 'disconnect' ? session.channel.disconnect() : session.channel.logout({ keepStore: how === 'unpair' });
    await closing.catch((err) => log.warn('closing a session failed', { connectionId, error: String(err) }));
  };

  /** The commands as this instance runs them, on a connection whose lease it holds (or takes). */
  const here = {
    pairingCode: async (connectionId: number) => (sessions.get(connectionId)?.channel.status() === 'qrcode' ? codes.get(connectionId) : undefined),

    async requestPairingCode(companyId: number, connectionId: number, number: string): Promise<string> {
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
        await here.start(companyId, connectionId, { pairingCodeFor: number });
        return await code;
      } finally {
        clearTimeout(timer);
        codeWaiters.delete(connectionId);
      }
    },

    async start(companyId: number, connectionId: number, opts?: { pairingCodeFor?: string }): Promise<void> {
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

    async renewQr(companyId: number, connectionId: number): Promise<void> {
      await findConnection(companyId, connectionId);
      await claimHere(companyId, connectionId);
      await drop(connectionId, 'disconnect');
      await createAuthStore(db, companyId, connectionId).wipe();
      await persist(companyId, connectionId, { status: 'OPENING', qrcode: '', retries: 0, number: null });
      await here.start(companyId, connectionId);
    },

    async logout(companyId: number, connectionId: number): Promise<void> {
      await findConnection(companyId, connectionId);
      await claimHere(companyId, connectionId);
      await drop(connectionId, 'logout');
      // Wiped here too: a session that was not running may still hold stored credentials.
      await createAuthStore(db, companyId, connectionId).wipe();
      await persist(companyId, connectionId, { status: 'DISCONNECTED', qrcode: '', retries: 0 });
    },
  };
  // What the holder runs when another instance forwards a command to it.
  routing.register({
    start: ({ companyId, connectionId }) => here.start(companyId, connectionId),
    renewQr: ({ companyId, connectionId }) => here.renewQr(companyId, connectionId),
    logout: ({ companyId, connectionId }) => here.logout(companyId, connectionId),
    requestPairingCode: ({ companyId, connectionId, number }) => here.requestPairingCode(companyId, connectionId, String(number)),
    pairingCode: async ({ connectionId }) => (await here.pairingCode(connectionId)) ?? null,
    forget: ({ connectionId, keepStore }) => drop(connectionId, keepStore ? 'unpair' : 'logout'),
  });
  const remoteChannels = createRemoteChannels(routing, (connectionId) => sessions.get(connectionId)?.channel);
  /** A command waits for the holder's answer this long (it may start a session). */
  const COMMAND_MS = 15_000;

  const manager: SessionManager = {
    simulator: deps.simulator,
    simulatorControls: createSimulatorControls(deps.simulator, routing, {
      flush: (connectionId) => manager.flush(connectionId),
      status: (connectionId) => sessions.get(connectionId)?.channel.status(),
    }),
    getChannel: (connectionId) => sessions.get(connectionId)?.channel,
    companyOf: (connectionId) => sessions.get(connectionId)?.companyId,
    queries: (companyId, connectionId) => remoteChannels.queries({ companyId, connectionId }),
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

    // Each command runs where the session runs: here, or on the holder of the lease (holder.ts).
    async pairingCode(companyId, connectionId) {
      const code = await routing.onHolder<string | null>({ companyId, connectionId }, 'pairingCode', {}, async () => (await here.pairingCode(connectionId)) ?? null);
      return code ?? undefined;
    },
    requestPairingCode: (companyId, connectionId, number) =>
      routing.command({ companyId, connectionId }, 'requestPairingCode', { number }, () => here.requestPairingCode(companyId, connectionId, number), PAIRING_CODE_WAIT_MS + COMMAND_MS),
    start: (companyId, connectionId, opts) => routing.command({ companyId, connectionId }, 'start', {}, () => here.start(companyId, connectionId, opts), COMMAND_MS),
    renewQr: (companyId, connectionId) => routing.command({ companyId, connectionId }, 'renewQr', {}, () => here.renewQr(companyId, connectionId), COMMAND_MS),
    logout: (companyId, connectionId) => routing.command({ companyId, connectionId }, 'logout', {}, () => here.logout(companyId, connectionId), COMMAND_MS),

    // The row is gone or being deleted, its lease no guide: every instance hears it, the holder logs out.
    async forget(connectionId, opts) {
      const keepStore = opts?.keepStore === true;
      if (sessions.has(connectionId)) return drop(connectionId, keepStore ? 'unpair' : 'logout');
      await routing.broadcast('forget', { companyId: 0, connectionId, keepStore });
    },

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
        heartbeatTimer = setInterval(() => void manager.heartbeat().catch((err) => log.warn('lease heartbeat failed', { error: String(err) })), deps.heartbeatMs ?? 5_000);
        heartbeatTimer.unref?.();
      }
    },
  };

  /**
   * Starts here the live connections the filter picks whose lease this instance gets, company by
   * company (every query through tenant()); those another instance holds stay there.
   */
  async function startLive(pick: (row: { id: number; leaseExpiresAt: string | null }) => boolean) {
    const companies = await db.selectFrom('companies').select('id').execute();
    for (const company of companies) {
      const rows = await tenant(db, company.id).selectFrom('whatsapps').select(['id', 'leaseExpiresAt']).where('status', 'in', LIVE).where('deletingSince', 'is', null).execute();
      for (const row of rows.filter(pick)) {
        if (deps.leases && !sessions.has(row.id) && !(await deps.leases.claim(company.id, row.id))) continue;
        // One failing connection must not keep the others down.
        await here.start(company.id, row.id).catch((err) => log.warn('session not started', { connectionId: row.id, error: String(err) }));
      }
    }
  }
  return manager;
}
