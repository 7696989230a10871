// The session manager's types: its interface, the adapters it builds, the events it hands on.
import type { Tx } from '../db/write.ts';
import type { AuthStore } from './auth-store.ts';
import type { ChannelQueries } from './remote-channel.ts';
import type { SimulatorControls } from './simulator/controls.ts';
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
export type Listener<T> = (event: T) => void | Promise<void>;
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
  /** The pairing code shown for the connection, while it waits for the phone (asked of the instance running it). */
  pairingCode(companyId: number, connectionId: number): Promise<string | undefined>;
  /** Unpairs: credentials wiped, status DISCONNECTED; the session stays down until started again. */
  logout(companyId: number, connectionId: number): Promise<void>;
  /**
   * The connection row is gone, or being deleted: end its session (logged out) without writing to it.
   * With `keepStore` its stored keys stay for the delete to wipe a slice at a time.
   */
  forget(connectionId: number, opts?: { keepStore?: boolean }): Promise<void>;
  /** Shutdown: closes sockets but keeps statuses, so the next boot reconnects. */
  stopAll(): Promise<void>;
  getChannel(connectionId: number): Channel | undefined;
  /** The company of a connection whose session runs here (a connection never changes company). */
  companyOf(connectionId: number): number | undefined;
  /** Network questions (numbers, address book, delete, read receipts) answered where the session runs (remote-channel.ts). */
  queries(companyId: number, connectionId: number): ChannelQueries;
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
  /** The simulator's HTTP controls: they act where the connection's session runs (simulator/controls.ts). */
  readonly simulatorControls: SimulatorControls;
};

