// The sync bookkeeping tables: client groups, clients, CVRs and the company watermark, plus the
// in-process caches in front of them. Everything here is per company through tenant(), except
// the one lookup of a client group by id, which must see a foreign group in order to refuse it.
import { AppError } from '@zapdesk/sync';
import type { Actor } from '../context.ts';
import { sql } from 'kysely';
import { nowIso, type Database, type Dialect } from '../db/database.ts';
import { tenant } from '../db/tenant.ts';
import { decodeEntries, type Cvr, type Listing } from './cvr.ts';

/** CVRs kept per client group: the current one plus a few a slow tab may still name. */
export const CVRS_KEPT = 4;

export type ClientGroup = { id: string; userId: number; companyId: number; cvrVersion: number };

/** The client group, created for the actor when new; a group of another user or company is refused. */
export async function claimClientGroup(db: Database, actor: Actor, id: string): Promise<ClientGroup> {
  // Looked up without the company filter on purpose: a foreign group must be seen to be refused.
  const find = () => db.selectFrom('replicacheClientGroups').select(['id', 'userId', 'companyId', 'cvrVersion']).where('id', '=', id).executeTakeFirst();
  let group = await find();
  if (!group) {
    await tenant(db, actor.companyId)
      .insertInto('replicacheClientGroups', { id, userId: actor.userId, cvrVersion: 0 })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    group = await find();
  }
  if (!group || group.userId !== actor.userId || group.companyId !== actor.companyId) {
    throw new AppError('ERR_NO_PERMISSION', 'This sync client group belongs to another user.');
  }
  return group;
}

/** The company's change counters per table, and their sum: the watermark a CVR is stamped with. */
export type Watermarks = { total: number; byTable: Map<string, number> };

export async function readWatermarks(db: Database, companyId: number): Promise<Watermarks> {
  const rows = await tenant(db, companyId).selectFrom('syncVersions').select(['syncVersions.tbl', 'syncVersions.version']).execute();
  const byTable = new Map<string, number>();
  let total = 0;
  for (const r of rows) {
    byTable.set(r.tbl, r.version);
    total += r.version;
  }
  return { total, byTable };
}

export async function findClients(db: Database, companyId: number, groupId: string): Promise<Record<string, number>> {
  const rows = await tenant(db, companyId)
    .selectFrom('replicacheClients')
    .select(['replicacheClients.id', 'replicacheClients.lastMutationId'])
    .where('replicacheClients.clientGroupId', '=', groupId)
    .execute();
  const out: Record<string, number> = {};
  for (const r of rows) out[r.id] = r.lastMutationId;
  return out;
}

/** Small LRU over a Map (insertion order). */
class Lru<K, V> {
  readonly #max: number;
  readonly #map = new Map<K, V>();
  constructor(max: number) {
    this.#max = max;
  }
  get(key: K): V | undefined {
    const v = this.#map.get(key);
    if (v !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, v);
    }
    return v;
  }
  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.#max) this.#map.delete(this.#map.keys().next().value as K);
  }
}

export type SyncStore = ReturnType<typeof createSyncStore>;

/**
 * CVRs by (group, version) are immutable apart from the watermark, which only moves forward, so
 * caching them is safe across instances: a stale watermark only costs a recomputation.
 * Listings are cached per (company, view, audience) with the watermark they were read at; a
 * recomputed listing equal to the cached one keeps the old object, so diffs skip it by identity.
 */
export function createSyncStore(db: Database, _dialect?: Dialect) {
  const cvrs = new Lru<string, Cvr>(5000);
  // stamp: the counters of the tables the view reads, when it was listed; watermark orders entries.
  const listings = new Lru<number, Map<string, { stamp: string; watermark: number; listing: Listing }>>(1000);

  return {
    async loadCvr(companyId: number, groupId: string, version: number): Promise<Cvr | undefined> {
      const cached = cvrs.get(`${groupId}:${version}`);
      if (cached) return cached;
      const row = await tenant(db, companyId)
        .selectFrom('replicacheCvrs')
        .select(['replicacheCvrs.entries', 'replicacheCvrs.watermark', 'replicacheCvrs.clients'])
        .where('replicacheCvrs.clientGroupId', '=', groupId)
        .where('replicacheCvrs.version', '=', version)
        .executeTakeFirst();
      if (!row) return undefined;
      const cvr: Cvr = { watermark: row.watermark, clients: JSON.parse(row.clients) as Record<string, number>, views: decodeEntries(row.entries) };
      cvrs.set(`${groupId}:${version}`, cvr);
      return cvr;
    },

    /** Records that the CVR still is the whole view at a newer watermark (nothing the user sees changed). */
    async advanceWatermark(companyId: number, groupId: string, version: number, cvr: Cvr, watermark: number) {
      if (watermark <= cvr.watermark) return;
      cvr.watermark = watermark;
      await tenant(db, companyId)
        .updateTable('replicacheCvrs')
        .set({ watermark })
        .where('replicacheCvrs.clientGroupId', '=', groupId)
        .where('replicacheCvrs.version', '=', version)
        .where('replicacheCvrs.watermark', '<', watermark)
        .execute();
    },

    /** Stores the next CVR of the group under a fresh version and forgets the old ones. */
    async saveCvr(companyId: number, groupId: string, baseVersion: number, cvr: Cvr, entries: string): Promise<number> {
      const version = await db.transaction().execute(async (trx) => {
        const t = tenant(trx, companyId);
        const now = nowIso();
        // One atomic step (no read-then-write race between two pulls of a group), and past the
        // cookie too: a group the server lost restarts above what the client holds.
        const { cvrVersion: next } = await t
          .updateTable('replicacheClientGroups')
          .set({ cvrVersion: sql<number>`(CASE WHEN cvr_version > ${baseVersion} THEN cvr_version ELSE ${baseVersion} END) + 1`, updatedAt: now })
          .where('replicacheClientGroups.id', '=', groupId)
          .returning('replicacheClientGroups.cvrVersion')
          .executeTakeFirstOrThrow();
        await t.insertInto('replicacheCvrs', { clientGroupId: groupId, version: next, entries, watermark: cvr.watermark, clients: JSON.stringify(cvr.clients), createdAt: now, updatedAt: now }).execute();
        await t.deleteFrom('replicacheCvrs').where('replicacheCvrs.clientGroupId', '=', groupId).where('replicacheCvrs.version', '<=', next - CVRS_KEPT).execute();
        return next;
      });
      cvrs.set(`${groupId}:${version}`, cvr);
      return version;
    },

    /**
     * The cached listing of a view while the counters of its tables (`stamp`) are unchanged, or the
     * result of `compute`, deduplicated against the previous listing (same content → same object).
     */
    async listing(companyId: number, key: string | null, stamp: string, watermark: number, compute: () => Promise<Listing>, same: (a: Listing, b: Listing) => boolean): Promise<Listing> {
      if (key === null) return compute();
      let perCompany = listings.get(companyId);
      if (!perCompany) listings.set(companyId, (perCompany = new Map()));
      const hit = perCompany.get(key);
      if (hit && hit.stamp === stamp) return hit.listing;
      const fresh = await compute();
      const listing = hit && same(hit.listing, fresh) ? hit.listing : fresh;
      // Never move a cached entry backwards: a slower pull of an older watermark must not win.
      const current = perCompany.get(key);
      if (!current || current.watermark <= watermark) perCompany.set(key, { stamp, watermark, listing });
      return listing;
    },
  };
}
