// POST /sync/pull: Replicache pull protocol v1 with row versioning
// (https://doc.replicache.dev/strategies/row-version#pull), written as the protocol's steps.
import type { Cookie, PatchOperation, PullResponseOKV1 } from 'replicache';
import { z } from 'zod';
import type { Profile } from '@zapdesk/sync';
import { sessionEnded } from '../auth/middleware.ts';
import type { AppDeps, Actor } from '../context.ts';
import { tenant } from '../db/tenant.ts';
import { diffViews, sameClients, sameListing, toListing, toSegmentedListing, type Cvr, type Listing, type ViewDiff } from './cvr.ts';
import type { SyncStore } from './store.ts';
import { VIEWS } from './views/index.ts';
import type { ViewContext } from './views/types.ts';

export const pullRequestSchema = z.object({
  pullVersion: z.literal(1),
  clientGroupID: z.string().min(1).max(100),
  // Our cookies are {order}; anything else (a foreign or corrupt cookie) means "start over".
  cookie: z.unknown(),
  profileID: z.string().optional(),
  schemaVersion: z.string().optional(),
});
export type PullRequest = z.infer<typeof pullRequestSchema>;

const cookieSchema = z.object({ order: z.number().int().nonnegative() });

/** Diffs up to this many puts keep their operations for the next user (see step 9). */
const SHARED_PUTS_MAX = 200;

function sharedPuts(d: ViewDiff, key: string, read: () => Promise<PatchOperation[]>): Promise<PatchOperation[]> {
  const ops = (d.ops ??= new Map());
  let hit = ops.get(key) as Promise<PatchOperation[]> | undefined;
  if (!hit) {
    hit = read();
    ops.set(key, hit);
    // A failed read is not remembered: the next pull reads again.
    hit.catch(() => ops.delete(key));
  }
  return hit;
}

/** How the pull was answered, for logs and the benchmark. */
export type PullStats = { path: 'unchanged' | 'same-view' | 'patch'; rows: number };
export type PullResult = { response: PullResponseOKV1; stats: PullStats };

/** Who pulls, as the access token says; their role is read with the counters (see pullForSession). */
export type SessionRef = Pick<Actor, 'userId' | 'companyId' | 'sessionId'>;

/** What a pull reads through: the app's database, or the pull thread's own read-only handle (pull-thread.ts). */
export type PullDeps = Pick<AppDeps, 'db' | 'dialect'>;

/**
 * The pull of a signed-in session (the route and the socket). The session's validity and the
 * user's role are read in the same statement as the change counters: read apart, a role change
 * committed between the two reads would stamp a CVR of the old role with the new watermark, and
 * the pull after the poke would answer "no change".
 */
export function pullForSession(deps: PullDeps, store: SyncStore, session: SessionRef, req: PullRequest): Promise<PullResult> {
  return run(deps, store, req, { session });
}

/** A pull for an actor the caller vouches for (tests and benchmarks of the algorithm). */
export function pull(deps: PullDeps, store: SyncStore, actor: Actor, req: PullRequest): Promise<PullResult> {
  return run(deps, store, req, { actor });
}

async function run(deps: PullDeps, store: SyncStore, req: PullRequest, who: { actor: Actor } | { session: SessionRef }): Promise<PullResult> {
  const { db } = deps;
  const cookie = cookieSchema.safeParse(req.cookie);
  const baseVersion = cookie.success ? cookie.data.order : 0;
  const groupId = req.clientGroupID;
  const { companyId } = 'actor' in who ? who.actor : who.session;

  // 1. The watermarks are read before any row (the user's own included), so whatever we read
  //    below is at least that new; with them, the group's clients and the session.
  const { marks, clients, user } = await store.readPullState(companyId, groupId, 'session' in who ? who.session : undefined);
  const watermark = marks.total;
  let actor: Actor;
  if ('actor' in who) actor = who.actor;
  else if (!user) throw await sessionEnded(deps, who.session.sessionId, who.session.userId);
  else actor = { ...who.session, profile: user.profile as Profile, super: user.super };

  // 2. The client group is the actor's (created on first pull); anyone else's is refused.
  await store.claimGroup(actor, groupId);

  // 3. The CVR the cookie names; unknown or lost means a full resync (clear + puts), never an error.
  const base = cookie.success ? await store.loadCvr(actor.companyId, groupId, baseVersion) : undefined;

  // 4. Nothing in the company moved and no client of the group pushed: same cookie, empty patch.
  if (base && base.watermark === watermark && sameClients(base.clients, clients)) {
    return { response: { cookie: req.cookie as Cookie, lastMutationIDChanges: {}, patch: [] }, stats: { path: 'unchanged', rows: 0 } };
  }

  // 5. The (id, version) pairs the actor may see now, view by view (shared listings come cached).
  const ctx: ViewContext = { db, dialect: deps.dialect, t: tenant(db, actor.companyId), actor, clientGroupId: groupId, tableVersions: marks.byTable };
  const views: Record<string, Listing> = {};
  const keys: Record<string, string | null> = {};
  for (const view of VIEWS) {
    const audience = view.audience(actor);
    const key = (keys[view.name] = audience === null ? null : `${view.name}|${audience}`);
    // A view of the group's own bookkeeping moves only with its clients' lastMutationIDs.
    const kept = view.perGroup && base && sameClients(base.clients, clients) ? base.views[view.name] : undefined;
    if (kept) {
      views[view.name] = kept;
      continue;
    }
    const stamp = view.tables ? view.tables.map((t) => marks.byTable.get(t) ?? 0).join('.') : String(watermark);
    const listing = await store.listing(actor.companyId, key, stamp, watermark, async () => (view.listSegments ? toSegmentedListing(await view.listSegments(ctx)) : toListing(await view.listVersions(ctx))), sameListing);
    // An uncached view listed the same as last time keeps the base's object (and its stored id).
    const before = base?.views[view.name];
    views[view.name] = before && before !== listing && sameListing(before, listing) ? before : listing;
  }
  const next: Cvr = { watermark, clients, views };

  // 6. Diff against the base CVR (an empty one when there is none).
  const diff = diffViews(base?.views ?? {}, views);
  const changedClients = Object.entries(clients).filter(([id, lmid]) => base?.clients[id] !== lmid);

  // 7. Same rows, same clients: remember the newer watermark on the base CVR and answer "no change".
  if (base && Object.keys(diff).length === 0 && changedClients.length === 0) {
    await store.advanceWatermark(actor.companyId, groupId, baseVersion, base, watermark);
    return { response: { cookie: req.cookie as Cookie, lastMutationIDChanges: {}, patch: [] }, stats: { path: 'same-view', rows: 0 } };
  }

  // 8. Store the new CVR under the next version of the group (a map view → shared listing id; old
  //    ones beyond a few are dropped). Its write waits for SQLite's writer, so the rows of step 9
  //    are read meanwhile. Should they fail, the saved CVR is one no cookie names, never a wrong one.
  const saving = store.saveCvr(actor, groupId, baseVersion, next);

  // 9. Full rows only for what is new or newer. The puts of a small diff between two cached
  //    listings are kept on the diff for the next user of the same audience (the version rule makes
  //    the values a function of id and version), so a poke reads the changed rows once.
  const patch: PatchOperation[] = [];
  if (!base) patch.push({ op: 'clear' });
  const puts: PatchOperation[] = [];
  try {
    for (const view of VIEWS) {
      const d = diff[view.name];
      if (!d) continue;
      // Dels go first: a key that moved between two views of one prefix is deleted, then put.
      for (const id of d.dels) patch.push({ op: 'del', key: `${view.prefix}/${id}` });
      if (d.puts.length === 0) continue;
      const read = async () => (await view.getValues(ctx, d.puts)).map(({ id, value }): PatchOperation => ({ op: 'put', key: `${view.prefix}/${id}`, value }));
      const key = keys[view.name];
      const shared = base && key !== null && d.puts.length <= SHARED_PUTS_MAX ? `${actor.companyId}|${key}|${view.valueScope?.(actor) ?? ''}` : null;
      puts.push(...(shared ? await sharedPuts(d, shared, read) : await read()));
    }
  } catch (err) {
    await saving.catch(() => undefined);
    throw err;
  }
  const rows = puts.length;
  patch.push(...puts);
  const version = await saving;

  // 10. lastMutationIDChanges: clients of the group whose lastMutationID moved since the base CVR.
  return { response: { cookie: { order: version }, lastMutationIDChanges: Object.fromEntries(changedClients), patch }, stats: { path: 'patch', rows } };
}
