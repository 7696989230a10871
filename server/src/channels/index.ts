// Builds the session manager with its adapters: `simulator` always, and `beta` (the spec's default
// provider) on Baileys, or on the simulator where nothing may reach WhatsApp (tests).
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { Logger } from '../log.ts';
import type { Dialect } from '../db/database.ts';
import { createBaileysFactory } from './baileys/adapter.ts';
import type { Bus } from '../realtime/bus.ts';
import { createLeases } from './lease.ts';
import { createRemoteCalls } from './remote.ts';
import { createSessionManager, type SessionManager, type WriteFn } from './session-manager.ts';
import { createSimulatorNetwork } from './simulator/network.ts';

export type { SessionManager, InboundEvent, AckEvent, StatusEvent, WriteFn } from './session-manager.ts';

export function createChannelSessions(opts: {
  db: Database;
  log: Logger;
  config: Pick<Config, 'simulatorTiming' | 'dataDir' | 'leases'>;
  /** The app's write path: status and QR changes are writes with their poke as an effect. */
  write: WriteFn;
  /** false in tests: `beta` connections run on the simulator too. */
  realWhatsApp?: boolean;
  /** On PostgreSQL several instances may share the database, so connections are leased (config.leases). */
  dialect?: Dialect;
  /** The bus between instances (PostgreSQL): session commands and simulator controls reach the holder over it. */
  bus?: Bus;
  /** This process's id (deps.instanceId): the owner its leases carry. */
  instanceId?: string;
}): SessionManager {
  // The simulated phones' outboxes live in DATA_DIR: like WhatsApp's servers, they outlive the process.
  const simulator = createSimulatorNetwork(opts.config.simulatorTiming, { dataDir: opts.config.dataDir });
  const beta = opts.realWhatsApp === false ? simulator.createChannel : createBaileysFactory({ log: opts.log });
  // One SQLite file serves one process: there is nobody to share a connection with.
  const leases = opts.dialect === 'postgres' ? createLeases(opts.db, opts.config.leases.ttlMs, opts.instanceId) : undefined;
  return createSessionManager({
    db: opts.db,
    log: opts.log,
    simulator,
    factories: { simulator: simulator.createChannel, beta },
    write: opts.write,
    ...(leases ? { leases, heartbeatMs: opts.config.leases.heartbeatMs } : {}),
    ...(leases && opts.bus ? { remote: createRemoteCalls(opts.bus, leases.owner) } : {}),
  });
}
