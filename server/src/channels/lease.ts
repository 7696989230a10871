// Connection leases (DESIGN §11): with several server instances on one PostgreSQL, each WhatsApp
// connection runs on exactly one of them. An instance claims the lease row of a connection before
// starting its session, renews what it holds on a heartbeat, and takes over connections whose
// lease expired (their instance died). Lease writes do not bump `version`: clients never see them.
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { tenant } from '../db/tenant.ts';

export type Leases = {
  readonly owner: string;
  /** True when this instance holds (or just took) the connection's lease. */
  claim(companyId: number, connectionId: number): Promise<boolean>;
  /** Renews the held leases; answers the ids whose lease another instance took meanwhile. */
  renew(held: { companyId: number; connectionId: number }[]): Promise<number[]>;
  release(held: { companyId: number; connectionId: number }[]): Promise<void>;
};

/** `owner` is the instance's id (deps.instanceId): the lease rows then name the process an X-Zapdesk-Instance header names. */
export function createLeases(db: Database, leaseMs: number, owner: string = randomUUID()): Leases {
  const expiry = () => new Date(Date.now() + leaseMs).toISOString();
  return {
    owner,
    async claim(companyId, connectionId) {
      const now = new Date().toISOString();
      const result = await tenant(db, companyId)
        .updateTable('whatsapps')
        .set({ leaseOwner: owner, leaseExpiresAt: expiry() })
        .where('id', '=', connectionId)
        .where((eb) => eb.or([eb('leaseOwner', 'is', null), eb('leaseOwner', '=', owner), eb('leaseExpiresAt', '<', now)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async renew(held) {
      const lost: number[] = [];
      for (const { companyId, connectionId } of held) {
        const result = await tenant(db, companyId)
          .updateTable('whatsapps')
          .set({ leaseExpiresAt: expiry() })
          .where('id', '=', connectionId)
          .where('leaseOwner', '=', owner)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) lost.push(connectionId);
      }
      return lost;
    },
    async release(held) {
      for (const { companyId, connectionId } of held) {
        await tenant(db, companyId)
          .updateTable('whatsapps')
          .set({ leaseOwner: null, leaseExpiresAt: null })
          .where('id', '=', connectionId)
          .where('leaseOwner', '=', owner)
          .execute();
      }
    },
  };
}
