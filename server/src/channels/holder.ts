// Where a connection's session runs (DESIGN §11). With several instances on one PostgreSQL, the
// instance holding a connection's lease runs its session; commands and simulator controls reaching
// any other instance travel to the holder over the bus (remote.ts) and answer from there. With one
// process (SQLite, or no bus) everything runs here.
import { AppError } from '@zapdesk/sync';
import type { Database } from '../db/database.ts';
import { tenant } from '../db/tenant.ts';
import type { Leases } from './lease.ts';
import { NoAnswer, type RemoteCalls } from './remote.ts';
import type { ConnectionStatus } from './types.ts';

const LIVE: ConnectionStatus[] = ['CONNECTED', 'OPENING', 'PAIRING', 'qrcode'];
/** Between two looks at the lease while a message waits for a connection without a holder. */
const LOOK_AGAIN_MS = 250;

export type Target = { companyId: number; connectionId: number };
/** An operation the holder runs for the others: its arguments name the connection. */
export type Op = (args: Target & Record<string, unknown>) => Promise<unknown>;

export type Routing = {
  /** Operations this instance runs when another asks (registered by the manager and the simulator controls). */
  register(ops: Record<string, Op>): void;
  /**
   * A session command (start, new QR, pairing code, logout): here when this instance runs the
   * session or takes the lease now, else on the holder.
   */
  command<T>(t: Target, op: string, args: Record<string, unknown>, local: () => Promise<T>, timeoutMs: number): Promise<T>;
  /**
   * Acting on the running session (the simulator's controls): on the holder; with no holder, here
   * (which answers ERR_WAPP_NOT_INITIALIZED when no session runs here either). `waitMs`: a
   * connection that should be running (live status) but has no holder (its instance died, the
   * others have not taken it over yet) is waited for up to that long; the operation must be safe to
   * repeat, since a holder that died mid-call is asked again after the take-over.
   */
  onHolder<T>(t: Target, op: string, args: Record<string, unknown>, local: () => Promise<T>, opts?: { timeoutMs?: number; waitMs?: number }): Promise<T>;
  /** Tells every other instance (settings of the simulated phones), no answer. */
  broadcast(op: string, args: Target & Record<string, unknown>): Promise<void>;
};

export function createRouting(deps: { db: Database; leases?: Leases; remote?: RemoteCalls; isHere: (connectionId: number) => boolean }): Routing {
  const { db, leases, remote, isHere } = deps;
  const ops = new Map<string, Op>();
  remote?.serve(async (op, args) => {
    const run = ops.get(op);
    if (!run) throw new Error(`unknown remote operation ${op}`);
    return run(args as Target & Record<string, unknown>);
  });

  /** The live holder other than this instance, and whether the connection should be running. */
  const look = async ({ companyId, connectionId }: Target) => {
    const row = await tenant(db, companyId).selectFrom('whatsapps').select(['leaseOwner', 'leaseExpiresAt', 'status']).where('id', '=', connectionId).executeTakeFirst();
    if (!row) throw new AppError('ERR_NO_WAPP_FOUND');
    const held = row.leaseOwner && row.leaseExpiresAt && Date.parse(row.leaseExpiresAt) >= Date.now();
    return { owner: held && row.leaseOwner !== remote?.self ? row.leaseOwner : undefined, live: LIVE.includes(row.status as ConnectionStatus) };
  };

  /**
   * Asks the holder, watching its lease meanwhile: a holder that died (its lease lapsed or moved)
   * never answers, and the caller looks again at once instead of waiting out the timeout.
   */
  const ask = async <T>(owner: string, t: Target, op: string, args: Record<string, unknown>, timeoutMs: number): Promise<T> => {
    let settled = false;
    const watch = (async () => {
      while (!settled) {
        await new Promise((resolve) => setTimeout(resolve, 2 * LOOK_AGAIN_MS));
        if (!settled && (await look(t)).owner !== owner) throw new NoAnswer();
      }
    })();
    watch.catch(() => undefined);
    try {
      return await Promise.race([remote!.call<T>(owner, op, { ...t, ...args }, timeoutMs), watch as Promise<never>]);
    } finally {
      settled = true;
    }
  };

  return {
    register(more) {
      for (const [name, op] of Object.entries(more)) ops.set(name, op);
    },

    async command<T>(t: Target, op: string, args: Record<string, unknown>, local: () => Promise<T>, timeoutMs: number): Promise<T> {
      if (!leases || !remote) return local();
      // The lease may lapse between the claim and the look (its holder died): claim again, twice at most.
      for (let i = 0; i < 3; i++) {
        if (isHere(t.connectionId) || (await leases.claim(t.companyId, t.connectionId))) return local();
        const { owner } = await look(t);
        if (!owner) continue;
        try {
          return await ask<T>(owner, t, op, args, timeoutMs);
        } catch (err) {
          // Asked again only when the lease moved (a timeout from a live holder may have acted).
          if (!(err instanceof NoAnswer) || (await look(t)).owner === owner) throw err;
        }
      }
      throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'This connection is moving between server instances; try again.');
    },

    async onHolder<T>(t: Target, op: string, args: Record<string, unknown>, local: () => Promise<T>, opts: { timeoutMs?: number; waitMs?: number } = {}): Promise<T> {
      if (!remote) return local();
      const until = Date.now() + (opts.waitMs ?? 0);
      for (;;) {
        if (isHere(t.connectionId)) return local();
        const { owner, live } = await look(t);
        const mayWait = live && Date.now() < until;
        if (owner) {
          try {
            return await ask<T>(owner, t, op, args, opts.timeoutMs ?? 15_000);
          } catch (err) {
            // Its holder died or let it go meanwhile: asked again once someone holds it.
            const moved = err instanceof NoAnswer || (err instanceof AppError && err.code === 'ERR_WAPP_NOT_INITIALIZED');
            if (!moved) throw err;
            // A holder that died, with nothing to wait for: here, as with no holder (the simulated
            // phone's outbox is read here; a control needing the session says it is not started).
            if (!mayWait) return err instanceof NoAnswer ? local() : Promise.reject(err);
          }
        } else if (!mayWait) {
          return local();
        }
        await new Promise((resolve) => setTimeout(resolve, LOOK_AGAIN_MS));
      }
    },

    broadcast: async (op, args) => {
      await remote?.broadcast(op, args);
    },
  };
}
