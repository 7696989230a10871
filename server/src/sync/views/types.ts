// What a view is: one entity's slice of a user's client view, declared in one file.
import type { SyncPrefix, SyncValues } from '@zapdesk/sync/keys';
import type { ReadonlyJSONValue } from 'replicache';
import type { Actor } from '../../context.ts';
import type { Database, Dialect } from '../../db/database.ts';
import type { Tenant } from '../../db/tenant.ts';

export type RowId = number | string;
/** A row version as the CVR records it. A string may combine several inputs (e.g. `7:1.4` for version 7 in queues 1 and 4). */
export type RowVersion = number | string;
export type VersionRow = { id: RowId; version: RowVersion };

export type ViewContext = {
  db: Database;
  dialect: Dialect;
  /** The actor's company: every tenant query of a view goes through it. */
  t: Tenant;
  actor: Actor;
  clientGroupId: string;
  /** The company's change counter per table as this pull read them (absent outside a pull). */
  tableVersions?: ReadonlyMap<string, number>;
};

export type SyncView<P extends SyncPrefix = SyncPrefix> = {
  /** Unique name of the view; the CVR is keyed by it. Several views may share a prefix (disjoint ids). */
  name: string;
  /** Keys are `<prefix>/<id>`. */
  prefix: P;
  /**
   * The tables (SQL names) whose rows decide this view's listing. While their change counters
   * stand still, the cached listing is reused; omitted means "any table of the company".
   */
  tables?: readonly string[];
  /**
   * What the listing depends on besides the company's synced data (which the watermark covers):
   * listings are cached per (company, watermark, audience). Return '' when every user of the
   * company sees the same (id, version) pairs, e.g. `actor.profile` when the role decides, or
   * null when the listing must never be cached.
   */
  audience(actor: Actor): string | null;
  /**
   * The values must be the same for every actor of one audience at one (id, version): pulls of a
   * company share the puts of a diff on that basis. A view whose values also depend on the actor
   * (a field only the user's own row carries) names what else decides here.
   */
  valueScope?(actor: Actor): string;
  /**
   * The listing reads only the client group's own bookkeeping, which moves only with its clients'
   * lastMutationIDs: while those stand still, the group's previous listing is reused.
   */
  perGroup?: boolean;
  /** The (id, version) pairs the actor may see now. */
  listVersions(ctx: ViewContext): Promise<VersionRow[]>;
  /**
   * The same pairs in parts (messages: one per ticket), for a pull: a part the view returns as the
   * same array object as before is unchanged, and the CVR diff skips it (cvr.ts, segments).
   */
  listSegments?(ctx: ViewContext): Promise<readonly (readonly VersionRow[])[]>;
  /** The values stored under the keys, for the given visible ids (never re-checks visibility). */
  getValues(ctx: ViewContext, ids: RowId[]): Promise<{ id: RowId; value: SyncValues[P] }[]>;
};

/** Declares a view with its value type checked against SyncValues. */
export function defineView<P extends SyncPrefix>(view: SyncView<P>): SyncView<P> {
  return view;
}

/** Ids in chunks, so `where id in (…)` stays under the databases' parameter limits. */
export function chunk<T>(items: T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** A JSON text column (schedules); a malformed one reads as an empty list rather than failing the pull. */
export function parseJson(text: string): ReadonlyJSONValue {
  try {
    return JSON.parse(text) as ReadonlyJSONValue;
  } catch {
    return [];
  }
}
