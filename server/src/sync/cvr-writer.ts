// The writes of the pull path: a CVR with the listing rows it carries (group commit), a watermark
// moved forward, the collection of unreferenced listings; and the claim of a client group, which a
// push makes too. The store (store.ts) keeps the reads and the caches in front of them.
import { AppError } from '@zapdesk/sync';
import { sql } from 'kysely';
import { transactionFirst, type Database, type Dialect } from '../db/database.ts';
import { prepare, prepareAcrossCompanies } from '../db/prepared.ts';
import { tenant } from '../db/tenant.ts';
import { decodeRefs, partsOfStored } from './cvr.ts';
import { pullStatements } from './statements.ts';
import { chunk } from './views/types.ts';

/** CVRs kept per client group: the current one plus a few a slow tab may still name. */
export const CVRS_KEPT = 4;

/** Garbage collection spares listing rows touched this recently (well above store.ts LISTING_TRUST_MS). */
export const LISTING_GRACE_MS = 30 * 60_000;

/** Who owns a client group. */
export type GroupOwner = { companyId: number; userId: number };

/** A CVR row to store under the group's next version. */
export type CvrRow = GroupOwner & {
  groupId: string;
  /** The version the pull started from (the cookie's): the new one is above it and above the stored one. */
  baseVersion: number;
  /** The map view → listing id (cvr.ts encodeRefs). */
  entries: string;
  watermark: number;
  /** The group's clients' lastMutationIDs, as JSON. */
  clients: string;
  /** Listing rows the CVR names that may not be stored yet (`entries` their stored text): written first, in its transaction. */
  listings?: { id: string; entries: string }[];
};

export type CvrWriter = {
  /**
   * Stores a CVR (after the listing rows it carries) under the group's next version and drops the
   * old ones; resolves to that version.
   */
  saveCvr(row: CvrRow): Promise<number>;
  /**
   * saveCvr for several rows gathered elsewhere (the pull thread's, one turn of its event loop):
   * written at once, together with any saves waiting here, rather than after this thread's turn.
   * Each row's version, or the error that row's save failed with.
   */
  saveCvrBatch(rows: CvrRow[]): Promise<({ ok: true; version: number } | { ok: false; error: unknown })[]>;
  /** Records a newer watermark on a stored CVR (nothing the user sees changed). */
  advanceWatermark(companyId: number, groupId: string, version: number, watermark: number): Promise<void>;
  /**
   * Deletes the company's listing rows that no CVR references and nobody touched for `graceMs`;
   * resolves to the ids deleted.
   */
  collectGarbage(companyId: number, graceMs?: number): Promise<string[]>;
  /** claimClientGroup: the group, created for its owner when new; another's is refused. */
  claimGroup(owner: GroupOwner, id: string): Promise<ClientGroup>;
};

/** CVR rows written in one transaction at most (a company's pulls after one poke, in slices). */
const SAVES_PER_COMMIT_MAX = 100;
/** Listing rows per statement. */
const LISTINGS_PER_STATEMENT = 200;

const insertClientGroup = prepare((db, p: { companyId: number; id: string; userId: number }) =>
  db
    .insertInto('replicacheClientGroups')
    .values({ companyId: p.companyId, id: p.id, userId: p.userId, cvrVersion: 0 })
    .onConflict((oc) => oc.column('id').doNothing()),
);
const upsertListings = prepare((db, p: { companyId: number; rows: { id: string; entries: string }[]; at: string }) =>
  db
    .insertInto('replicacheListings')
    .values(p.rows.map((r) => ({ companyId: p.companyId, id: r.id, entries: r.entries, usedAt: p.at })))
    .onConflict((oc) => oc.columns(['companyId', 'id']).doUpdateSet({ usedAt: p.at })),
);
// A client group is looked up without the company filter on purpose: a foreign group must be seen
// to be refused (store.ts claimClientGroup).
const selectClientGroup = prepareAcrossCompanies((db, p: { id: string }) =>
  db.selectFrom('replicacheClientGroups').select(['id', 'userId', 'companyId', 'cvrVersion']).where('replicacheClientGroups.id', '=', p.id),
);

export type ClientGroup = GroupOwner & { id: string; cvrVersion: number };

/** The client group, read without the company filter (a foreign one must be seen to be refused). */
async function findClientGroup(db: Database, id: string): Promise<ClientGroup | undefined> {
  return (await selectClientGroup(db, { id })).rows[0];
}

/** The client group, created for its owner when new; a group of another user or company is refused. */
export async function claimClientGroup(db: Database, owner: GroupOwner, id: string): Promise<ClientGroup> {
  let group = await findClientGroup(db, id);
  if (!group) {
    await insertClientGroup(db, { companyId: owner.companyId, id, userId: owner.userId });
    group = await findClientGroup(db, id);
  }
  if (!group || group.userId !== owner.userId || group.companyId !== owner.companyId) {
    throw new AppError('ERR_NO_PERMISSION', 'This sync client group belongs to another user.');
  }
  return group;
}

type QueuedSave = CvrRow & {
  /** Set once written, until the transaction commits. */
  version?: number;
  resolve(version: number): void;
  reject(err: unknown): void;
};

/** The pull path's writes on the database's writer (see the file's head). */
export function createCvrWriter(db: Database, dialect: Dialect): CvrWriter {
  const sqls = pullStatements(dialect);

  /**
   * A transaction for sync bookkeeping (CVR rows with the listing rows they carry). On PostgreSQL
   * its commit does not wait for the WAL flush: a CVR lost in a crash is one the client's cookie
   * names and the server no longer has, which the pull answers with a full resync (pull.ts step 3),
   * and a CVR whose listing is lost counts as lost; durability would buy nothing here but a flush
   * per pull (~3 ms).
   */
  function bookkeepingTransaction<T>(work: (trx: Database) => Promise<T>): Promise<T> {
    // On SQLite it goes ahead of the writes waiting for the writer: a pull waits for it.
    return transactionFirst(db, async (trx) => {
      if (dialect === 'postgres') await sql`SET LOCAL synchronous_commit = off`.execute(trx);
      return work(trx);
    });
  }

  /**
   * Writes the CVR rows of several saves (each group at most once) under their groups' next
   * versions, in the caller's transaction, and drops the old ones: three statements for them all.
   * Returns the versions in the order of `saves`.
   */
  async function writeCvrs(trx: Database, saves: CvrRow[], at: string): Promise<number[]> {
    // The listings first (a CVR never names a row not yet written), each once, touching used_at.
    const byCompany = new Map<number, Map<string, { id: string; entries: string }>>();
    for (const s of saves) {
      let rows = byCompany.get(s.companyId);
      if (!rows) byCompany.set(s.companyId, (rows = new Map()));
      for (const l of s.listings ?? []) rows.set(l.id, l);
    }
    for (const [companyId, rows] of byCompany) {
      for (const part of chunk([...rows.values()], LISTINGS_PER_STATEMENT)) await upsertListings(trx, { companyId, rows: part, at });
    }
    const n = saves.length;
    const bumped = await sqls.bumpGroupVersions(n)(trx, ...saves.flatMap((s) => [s.companyId, s.groupId, s.baseVersion]), at);
    const next = new Map(bumped.map((r) => [r.id, Number(r.cvrVersion)]));
    const versions: number[] = [];
    for (const s of saves) {
      let version = next.get(s.groupId);
      if (version === undefined) {
        // The group row is gone (the store had its owner cached): claim it anew (a group of
        // someone else's is refused), then bump.
        await claimClientGroup(trx, s, s.groupId);
        const rows = await sqls.bumpGroupVersion(trx, s.baseVersion, s.baseVersion, at, s.companyId, s.groupId);
        version = Number(rows[0]!.cvrVersion);
      }
      versions.push(version);
    }
    await sqls.insertCvrs(n)(trx, ...saves.flatMap((s, i) => [s.companyId, s.groupId, versions[i], s.entries, s.watermark, s.clients, at, at]));
    await sqls.deleteOldCvrsOf(n)(trx, ...saves.flatMap((s, i) => [s.companyId, s.groupId, versions[i]! - CVRS_KEPT]));
    return versions;
  }

  // Group commit of CVR rows: after a poke, the pulls of a whole company reach their save within
  // one turn of the event loop; their rows are written in one transaction (one commit, and three
  // statements per round of distinct groups, instead of a transaction of three each). Should that
  // transaction fail, each save runs again alone, so a pull fails only of its own error.
  let queued: QueuedSave[] = [];
  function flushSaves() {
    const batch = queued;
    queued = [];
    if (batch.length === 0) return;
    const at = new Date().toISOString();
    const alone = (save: QueuedSave) => bookkeepingTransaction((trx) => writeCvrs(trx, [save], at)).then(([v]) => save.resolve(v!), save.reject);
    if (batch.length === 1) return void alone(batch[0]!);
    // Two pulls of one group (a poke's run and the client's own pull) go in successive rounds.
    const rounds: QueuedSave[][] = [];
    const seen = new Map<string, number>();
    for (const save of batch) {
      const round = seen.get(save.groupId) ?? 0;
      seen.set(save.groupId, round + 1);
      (rounds[round] ??= []).push(save);
    }
    bookkeepingTransaction(async (trx) => {
      for (const round of rounds) {
        const versions = await writeCvrs(trx, round, at);
        round.forEach((save, i) => (save.version = versions[i]));
      }
    }).then(
      () => batch.forEach((save) => save.resolve(save.version!)),
      () => batch.forEach(alone),
    );
  }

  return {
    claimGroup: (owner, id) => claimClientGroup(db, owner, id),

    saveCvr(row) {
      return new Promise((resolve, reject) => {
        if (queued.length === 0) setImmediate(flushSaves);
        queued.push({ ...row, resolve, reject });
        if (queued.length >= SAVES_PER_COMMIT_MAX) flushSaves();
      });
    },

    saveCvrBatch(rows) {
      const saves = rows.map((row) => new Promise<number>((resolve, reject) => queued.push({ ...row, resolve, reject })));
      // What is queued goes now (a flush already scheduled finds nothing left).
      flushSaves();
      return Promise.all(saves.map((save) => save.then((version) => ({ ok: true as const, version }), (error: unknown) => ({ ok: false as const, error }))));
    },

    async advanceWatermark(companyId, groupId, version, watermark) {
      await sqls.advanceWatermark(db, watermark, companyId, groupId, version, watermark);
    },

    /**
     * An instance relies on a listing row only within LISTING_TRUST_MS of touching it, and the
     * delete re-checks the age, so a listing being saved right now is never taken away.
     */
    async collectGarbage(companyId, graceMs = LISTING_GRACE_MS) {
      const cutoff = new Date(Date.now() - graceMs).toISOString();
      const t = tenant(db, companyId);
      const candidates = await t.selectFrom('replicacheListings').select('replicacheListings.id').where('replicacheListings.usedAt', '<', cutoff).execute();
      if (candidates.length === 0) return [];
      const referenced = new Set<string>();
      for (const r of await t.selectFrom('replicacheCvrs').select('replicacheCvrs.entries').execute()) {
        for (const id of Object.values(decodeRefs(r.entries).refs)) referenced.add(id);
      }
      // The parts of a listing that stays (referenced, or too recent to collect) stay with it.
      const old = new Set(candidates.map((c) => c.id));
      for (const r of await t.selectFrom('replicacheListings').select(['replicacheListings.id', 'replicacheListings.entries']).where('replicacheListings.entries', 'like', '{%').execute()) {
        if (referenced.has(r.id) || !old.has(r.id)) for (const id of partsOfStored(r.entries) ?? []) referenced.add(id);
      }
      const doomed = candidates.map((c) => c.id).filter((id) => !referenced.has(id));
      const deleted: string[] = [];
      for (const part of chunk(doomed)) {
        const gone = await t
          .deleteFrom('replicacheListings')
          .where('replicacheListings.id', 'in', part)
          .where('replicacheListings.usedAt', '<', cutoff)
          .returning('replicacheListings.id')
          .execute();
        deleted.push(...gone.map((r) => r.id));
      }
      return deleted;
    },
  };
}
