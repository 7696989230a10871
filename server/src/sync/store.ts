// The sync bookkeeping tables: client groups, clients, CVRs and the company watermark, read here
// with the in-process caches in front of them; their writes go through a CvrWriter (cvr-writer.ts).
// Everything is per company through tenant(), except the one lookup of a client group by id, which
// must see a foreign group in order to refuse it.
import { AppError } from '@zapdesk/sync';
import type { Actor } from '../context.ts';
import type { Database, Dialect } from '../db/database.ts';
import { prepare } from '../db/prepared.ts';
import { tenant } from '../db/tenant.ts';
import { createCvrWriter, CVRS_KEPT, LISTING_GRACE_MS, type CvrWriter } from './cvr-writer.ts';
import { decodeRefs, encodeRefs, fromParts, listingId, parseListing, partsOfStored, storedParts, storedText, type Cvr, type Listing } from './cvr.ts';
import { pullStatements, type PullStateRow } from './statements.ts';
import { chunk } from './views/types.ts';

/** The company's change counters per table (the platform's added in), and their sum: the watermark a CVR is stamped with. */
export type Watermarks = { total: number; byTable: Map<string, number> };

export type PullState = { marks: Watermarks; clients: Record<string, number>; user?: { profile: string; super: boolean } };

function toPullState(rows: PullStateRow[]): PullState {
  const byTable = new Map<string, number>();
  const clients: Record<string, number> = {};
  let user: PullState['user'];
  let total = 0;
  for (const r of rows) {
    const k = Number(r.k);
    const v = Number(r.v);
    if (k === 0) {
      // A platform-wide table (announcements) counts under company 0: the same name adds up.
      byTable.set(r.id, (byTable.get(r.id) ?? 0) + v);
      total += v;
    } else if (k === 1) clients[r.id] = v;
    else user = { profile: r.id, super: v === 1 };
  }
  return { marks: { total, byTable }, clients, user };
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
  delete(key: K): void {
    this.#map.delete(key);
  }
  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.#max) this.#map.delete(this.#map.keys().next().value as K);
  }
}

export type SyncStore = ReturnType<typeof createSyncStore>;

// A pull reads the listings its CVR names: compiled once per number of rows (../db/prepared.ts).
const selectListings = prepare((db, p: { companyId: number; ids: string[] }) =>
  db
    .selectFrom('replicacheListings')
    .select(['replicacheListings.id', 'replicacheListings.entries'])
    .where('replicacheListings.companyId', '=', p.companyId)
    .where('replicacheListings.id', 'in', p.ids),
);

/** How long an instance relies on a listing row it wrote or touched without touching it again. */
export const LISTING_TRUST_MS = 5 * 60_000;
/** How often one instance collects a company's unreferenced listings (after a save). */
export const LISTING_GC_INTERVAL_MS = 10 * 60_000;

export type SyncStoreOptions = {
  gcIntervalMs?: number;
  log?: { warn(msg: string, data?: Record<string, unknown>): void };
  /** Where the store's writes go (default: a CvrWriter on `db`). */
  writer?: CvrWriter;
};

/**
 * CVRs by (group, version) are immutable apart from the watermark, which only moves forward, so
 * caching them is safe across instances: a stale watermark only costs a recomputation.
 * Listings are cached per (company, view, audience) with the watermark they were read at; a
 * recomputed listing equal to the cached one keeps the old object, so diffs skip it by identity.
 * Stored listings are cached by id (content-addressed, so immutable). A client group's owner never
 * changes, so it is cached too.
 */
export function createSyncStore(db: Database, dialect: Dialect, opts: SyncStoreOptions = {}) {
  const sqls = pullStatements(dialect);
  // Its writes: on this database's writer, or where `opts.writer` sends them (the pull thread's go to the main thread's).
  const writer = opts.writer ?? createCvrWriter(db, dialect);
  const cvrs = new Lru<string, Cvr>(5000);
  // stamp: the counters of the tables the view reads, when it was listed; watermark orders entries.
  const listings = new Lru<number, Map<string, { stamp: string; watermark: number; listing: Listing }>>(1000);
  // `${companyId}:${listing id}` → the listing, and → when this instance last knew its row exists.
  // Parts included: a listing by parts is one entry per ticket with messages, plus the list.
  const byId = new Lru<string, Listing>(20_000);
  const stored = new Lru<string, number>(50_000);
  const owners = new Lru<string, { userId: number; companyId: number }>(50_000);
  const lastGc = new Map<number, number>();
  const listingsInFlight = new Map<string, Promise<Listing>>();
  const storesInFlight = new Map<string, Promise<void>>();

  /**
   * The listing rows a CVR's save must carry (written before the CVR, in its transaction): those
   * this instance does not know to be stored. After a change, the pulls of the whole company meet
   * the same new listing, and the first save carries it; the others wait for that save (`waits`).
   * A listing by parts carries, with its list of part ids, the parts not known to be stored (after
   * one ticket's change, that ticket's). A row written for a pull that then fails is an orphan the
   * collection removes. `settle` ends the carrying: call it once the save is done or failed.
   */
  function listingsToCarry(companyId: number, views: Listing[], now: number) {
    const carry = new Map<string, Listing>();
    const waits: Promise<void>[] = [];
    for (const listing of views) {
      for (const l of [...(storedParts(listing) ?? []), listing]) {
        const key = `${companyId}:${listingId(l)}`;
        if (carry.has(key) || now - (stored.get(key) ?? -Infinity) <= LISTING_TRUST_MS) continue;
        const flying = storesInFlight.get(key);
        if (flying) waits.push(flying);
        else carry.set(key, l);
      }
    }
    let settle: (saved: boolean) => void = () => undefined;
    if (carry.size) {
      const flying = new Promise<void>((resolve, reject) => {
        settle = (saved) => {
          for (const key of carry.keys()) {
            storesInFlight.delete(key);
            if (saved) stored.set(key, now);
          }
          if (saved) resolve();
          else reject(new Error('the save that carried this listing failed'));
        };
      });
      // Nobody may be waiting for it.
      flying.catch(() => undefined);
      for (const key of carry.keys()) storesInFlight.set(key, flying);
    }
    return { rows: [...carry.values()].map((l) => ({ id: l.id!, entries: storedText(l) })), waits, settle };
  }

  /**
   * The company's stored listings by id, from memory or their rows (a listing by parts with its
   * parts); an id whose row, or one of whose parts, is gone is left out.
   */
  async function readListings(companyId: number, ids: string[]): Promise<Map<string, Listing>> {
    const found = new Map<string, Listing>();
    const texts = new Map<string, string>();
    const missing = (want: string[]) => want.filter((id) => !found.has(id) && !texts.has(id) && byId.get(`${companyId}:${id}`) === undefined);
    const fetch = async (want: string[]) => {
      for (const part of chunk(want)) {
        const { rows } = await selectListings(db, { companyId, ids: part });
        for (const r of rows) texts.set(r.id, r.entries);
      }
    };
    await fetch(missing(ids));
    const partIds = new Set<string>();
    for (const text of texts.values()) for (const id of partsOfStored(text) ?? []) partIds.add(id);
    await fetch(missing([...partIds]));
    const get = (id: string): Listing | undefined => {
      const key = `${companyId}:${id}`;
      const hit = byId.get(key) ?? found.get(id);
      if (hit) return hit;
      const text = texts.get(id);
      if (text === undefined) return undefined;
      const partIdsOf = partsOfStored(text);
      let listing: Listing | undefined;
      if (!partIdsOf) listing = parseListing(text, id);
      else {
        const parts = partIdsOf.map(get);
        if (parts.every((p) => p !== undefined)) listing = fromParts(parts as Listing[], id);
      }
      if (listing) {
        found.set(id, listing);
        byId.set(key, listing);
      }
      return listing;
    };
    const out = new Map<string, Listing>();
    for (const id of ids) {
      const listing = get(id);
      if (listing) out.set(id, listing);
    }
    return out;
  }

  const gcIntervalMs = opts.gcIntervalMs ?? LISTING_GC_INTERVAL_MS;

  const store = {
    /**
     * The change counters, the group's clients' lastMutationIDs and (given a session) the session's
     * user, in one statement, so one snapshot: every pull starts with it.
     */
    async readPullState(companyId: number, groupId: string, session?: { sessionId: string; userId: number }): Promise<PullState> {
      const rows = session
        ? await sqls.pullStateWithSession(db, companyId, companyId, groupId, session.sessionId, session.userId, companyId)
        : await sqls.pullState(db, companyId, companyId, groupId);
      return toPullState(rows);
    },

    /** claimClientGroup, with the owner of a known group answered from memory (it never changes). */
    async claimGroup(actor: Actor, id: string): Promise<void> {
      const owner = owners.get(id);
      if (!owner) {
        const group = await writer.claimGroup(actor, id);
        owners.set(id, { userId: group.userId, companyId: group.companyId });
        return;
      }
      if (owner.userId !== actor.userId || owner.companyId !== actor.companyId) {
        throw new AppError('ERR_NO_PERMISSION', 'This sync client group belongs to another user.');
      }
    },

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
      const { refs, inline } = decodeRefs(row.entries);
      const views: Record<string, Listing> = { ...inline };
      const listings = await readListings(companyId, Object.values(refs));
      for (const [name, id] of Object.entries(refs)) {
        const listing = listings.get(id);
        // A listing row (or a part of it) is gone (collected, or lost): the CVR is as good as lost, so a full resync.
        if (!listing) return undefined;
        views[name] = listing;
      }
      const cvr: Cvr = { watermark: row.watermark, clients: JSON.parse(row.clients) as Record<string, number>, views };
      cvrs.set(`${groupId}:${version}`, cvr);
      return cvr;
    },

    /** Records that the CVR still is the whole view at a newer watermark (nothing the user sees changed). */
    async advanceWatermark(companyId: number, groupId: string, version: number, cvr: Cvr, watermark: number) {
      if (watermark <= cvr.watermark) return;
      cvr.watermark = watermark;
      await writer.advanceWatermark(companyId, groupId, version, watermark);
    },

    /**
     * Stores the next CVR of the group under a fresh version and forgets the old ones. The CVR row
     * is the map view → listing id; a listing this instance does not know to be stored is written
     * with it, before it (after a change, that is the changed view's, once per company: see
     * listingsToCarry). Rows saved in the same turn of the writer's event loop share one transaction (cvr-writer.ts).
     */
    async saveCvr(actor: Actor, groupId: string, baseVersion: number, cvr: Cvr): Promise<number> {
      const { companyId } = actor;
      const entries = encodeRefs(cvr.views);
      const now = Date.now();
      const listings = listingsToCarry(companyId, Object.values(cvr.views), now);
      let version: number;
      try {
        await Promise.all(listings.waits);
        version = await writer.saveCvr({ companyId, userId: actor.userId, groupId, baseVersion, entries, watermark: cvr.watermark, clients: JSON.stringify(cvr.clients), listings: listings.rows });
      } catch (err) {
        listings.settle(false);
        throw err;
      }
      listings.settle(true);
      for (const listing of Object.values(cvr.views)) byId.set(`${companyId}:${listing.id!}`, listing);
      cvrs.set(`${groupId}:${version}`, cvr);
      // Gone from the database with this save (cvr-writer.ts): a cookie naming it resyncs, from memory too.
      cvrs.delete(`${groupId}:${version - CVRS_KEPT}`);
      if (now - (lastGc.get(companyId) ?? (lastGc.set(companyId, now), now)) >= gcIntervalMs) {
        lastGc.set(companyId, now);
        store.collectGarbage(companyId).catch((err: unknown) => opts.log?.warn('sync listing collection failed', { companyId, error: String(err) }));
      }
      return version;
    },

    /**
     * Deletes the company's listing rows that no CVR references and that nobody touched for
     * `graceMs` (cvr-writer.ts), and forgets them here; resolves to how many went.
     */
    async collectGarbage(companyId: number, graceMs = LISTING_GRACE_MS): Promise<number> {
      const deleted = await writer.collectGarbage(companyId, graceMs);
      for (const id of deleted) {
        stored.delete(`${companyId}:${id}`);
        byId.delete(`${companyId}:${id}`);
      }
      return deleted.length;
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
      // The pulls of one poke arrive together: the first lists, the others wait for its listing.
      const flightKey = `${companyId}|${key}|${stamp}`;
      const flying = listingsInFlight.get(flightKey);
      if (flying) return flying;
      const run = (async () => {
        const fresh = await compute();
        const listing = hit && same(hit.listing, fresh) ? hit.listing : fresh;
        // Never move a cached entry backwards: a slower pull of an older watermark must not win.
        const current = perCompany.get(key);
        if (!current || current.watermark <= watermark) perCompany.set(key, { stamp, watermark, listing });
        return listing;
      })();
      listingsInFlight.set(flightKey, run);
      try {
        return await run;
      } finally {
        listingsInFlight.delete(flightKey);
      }
    },
  };
  return store;
}
