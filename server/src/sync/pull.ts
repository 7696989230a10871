// POST /sync/pull: Replicache pull protocol v1 with row versioning
// (https://doc.replicache.dev/strategies/row-version#pull), written as the protocol's steps.
import type { Cookie, PatchOperation, PullResponseOKV1 } from 'replicache';
import { z } from 'zod';
import type { AppDeps, Actor } from '../context.ts';
import { tenant } from '../db/tenant.ts';
import { diffViews, sameClients, sameListing, toListing, type Cvr, type Listing } from './cvr.ts';
import { readPullState, type SyncStore } from './store.ts';
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

/** How the pull was answered, for logs and the benchmark. */
export type PullStats = { path: 'unchanged' | 'same-view' | 'patch'; rows: number };
export type PullResult = { response: PullResponseOKV1; stats: PullStats };

export async function pull(deps: AppDeps, store: SyncStore, actor: Actor, req: PullRequest): Promise<PullResult> {
  const { db } = deps;
  const cookie = cookieSchema.safeParse(req.cookie);
  const baseVersion = cookie.success ? cookie.data.order : 0;

  // 1. The client group is the actor's (created on first pull); anyone else's is refused.
  const groupId = req.clientGroupID;
  await store.claimGroup(actor, groupId);

  // 2. The watermarks are read before any row, so whatever we read below is at least that new.
  const { marks, clients } = await readPullState(db, actor.companyId, groupId);
  const watermark = marks.total;

  // 3. The CVR the cookie names; unknown or lost means a full resync (clear + puts), never an error.
  const base = cookie.success ? await store.loadCvr(actor.companyId, groupId, baseVersion) : undefined;

  // 4. Nothing in the company moved and no client of the group pushed: same cookie, empty patch.
  if (base && base.watermark === watermark && sameClients(base.clients, clients)) {
    return { response: { cookie: req.cookie as Cookie, lastMutationIDChanges: {}, patch: [] }, stats: { path: 'unchanged', rows: 0 } };
  }

  // 5. The (id, version) pairs the actor may see now, view by view (shared listings come cached).
  const ctx: ViewContext = { db, t: tenant(db, actor.companyId), actor, clientGroupId: groupId };
  const views: Record<string, Listing> = {};
  for (const view of VIEWS) {
    const audience = view.audience(actor);
    const key = audience === null ? null : `${view.name}|${audience}`;
    const stamp = view.tables ? view.tables.map((t) => marks.byTable.get(t) ?? 0).join('.') : String(watermark);
    const listing = await store.listing(actor.companyId, key, stamp, watermark, async () => toListing(await view.listVersions(ctx)), sameListing);
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

  // 8. Full rows only for what is new or newer.
  const patch: PatchOperation[] = [];
  if (!base) patch.push({ op: 'clear' });
  const puts: PatchOperation[] = [];
  let rows = 0;
  for (const view of VIEWS) {
    const d = diff[view.name];
    if (!d) continue;
    // Dels go first: a key that moved between two views of one prefix is deleted, then put.
    for (const id of d.dels) patch.push({ op: 'del', key: `${view.prefix}/${id}` });
    if (d.puts.length === 0) continue;
    for (const { id, value } of await view.getValues(ctx, d.puts)) {
      puts.push({ op: 'put', key: `${view.prefix}/${id}`, value });
      rows++;
    }
  }
  patch.push(...puts);

  // 9. Store the new CVR under the next version of the group (a map view → shared listing id);
  //    old ones beyond a few are dropped.
  const version = await store.saveCvr(actor, groupId, baseVersion, next);

  // 10. lastMutationIDChanges: clients of the group whose lastMutationID moved since the base CVR.
  return { response: { cookie: { order: version }, lastMutationIDChanges: Object.fromEntries(changedClients), patch }, stats: { path: 'patch', rows } };
}
