// Client View Records: per view, the (id → version) pairs a client group was sent.
// A listing is stored once per company under the hash of its stored text (its id): a flat listing
// as JSON `[id0,v0,id1,v1,…]`; a listing by parts (the messages, per ticket) as the ids of its parts
// `{"parts":[…]}`, each part a flat listing of its own, so a change in one ticket stores that
// ticket's part and a short list rather than every ticket's messages again. A CVR row is the small
// map `{"<view>":"<listing id>"}`. Listings are immutable once built, so two CVRs (or two users)
// share one listing object and one row, and an unchanged view is skipped by identity (or by id)
// before any per-row work.
import { createHash } from 'node:crypto';
import type { RowId, RowVersion, VersionRow } from './views/types.ts';

export type Listing = {
  readonly ids: RowId[];
  readonly versions: RowVersion[];
  /**
   * The listing as consecutive segments (a view that lists by parts, e.g. messages per ticket),
   * each an immutable listing shared by every listing that has the same part: diffs and JSON then
   * cost what changed, not the whole view. Listings read back from their stored JSON have none.
   */
  readonly segments?: readonly Listing[];
  /** id → version, built on first use. */
  index?: Map<RowId, RowVersion>;
  /** `[id0,v0,…]` as JSON, built on first use. */
  json?: string;
  /** Content hash of `json`: the listing's row id, built on first use. */
  id?: string;
};

export type Cvr = {
  /** The company watermark at which these entries were last known to be the whole view. */
  watermark: number;
  /** client id → lastMutationID as last sent to the group. */
  clients: Record<string, number>;
  views: Record<string, Listing>;
};

export function toListing(rows: VersionRow[]): Listing {
  const ids = new Array<RowId>(rows.length);
  const versions = new Array<RowVersion>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    ids[i] = rows[i]!.id;
    versions[i] = rows[i]!.version;
  }
  return { ids, versions };
}

// A part's rows → its segment, so that equal parts are one object in every listing made of them.
const segmentOf = new WeakMap<readonly VersionRow[], Listing>();

/** A listing made of parts (each an array the view keeps while the part is unchanged). */
export function toSegmentedListing(parts: readonly (readonly VersionRow[])[]): Listing {
  const segments = parts.map((rows) => {
    let segment = segmentOf.get(rows);
    if (!segment) segmentOf.set(rows, (segment = toListing(rows as VersionRow[])));
    return segment;
  });
  return new SegmentedListing(segments);
}

/**
 * A listing made of segments. Its pairs as one list are built only if something asks for them (a
 * diff against a flat listing): pulls compare, diff and store it by segments, and a listing of
 * every active ticket's messages holds thousands of pairs, which each pull after a change would
 * otherwise copy, and the CVRs in memory keep.
 */
class SegmentedListing implements Listing {
  index?: Map<RowId, RowVersion>;
  json?: string;
  id?: string;
  private flat?: { ids: RowId[]; versions: RowVersion[] };

  constructor(
    readonly segments: readonly Listing[],
    id?: string,
  ) {
    if (id !== undefined) this.id = id;
  }

  get ids(): RowId[] {
    return (this.flat ??= joined(this.segments)).ids;
  }

  get versions(): RowVersion[] {
    return (this.flat ??= joined(this.segments)).versions;
  }
}

/** The pairs of consecutive segments as one list. */
function joined(segments: readonly Listing[]): { ids: RowId[]; versions: RowVersion[] } {
  const ids: RowId[] = [];
  const versions: RowVersion[] = [];
  for (const segment of segments) {
    for (let i = 0; i < segment.ids.length; i++) {
      ids.push(segment.ids[i]!);
      versions.push(segment.versions[i]!);
    }
  }
  return { ids, versions };
}

/** How many pairs a listing holds, without joining its segments. */
const sizeOf = (listing: Listing): number => (listing.segments ? listing.segments.reduce((n, s) => n + sizeOf(s), 0) : listing.ids.length);

export function sameListing(a: Listing, b: Listing): boolean {
  if (a === b) return true;
  // Segment by segment: only the segments that are not the same object are compared.
  if (a.segments && b.segments && a.segments.length === b.segments.length) return a.segments.every((s, i) => sameListing(s, b.segments![i]!));
  if (sizeOf(a) !== sizeOf(b)) return false;
  for (let i = 0; i < a.ids.length; i++) if (a.ids[i] !== b.ids[i] || a.versions[i] !== b.versions[i]) return false;
  return true;
}

function indexOf(listing: Listing): Map<RowId, RowVersion> {
  if (!listing.index) {
    const m = new Map<RowId, RowVersion>();
    for (let i = 0; i < listing.ids.length; i++) m.set(listing.ids[i]!, listing.versions[i]!);
    listing.index = m;
  }
  return listing.index;
}

function jsonOf(listing: Listing): string {
  if (listing.json === undefined && listing.segments) {
    // The same text as the flat encoding below: the segments' element lists, comma-joined.
    const inner: string[] = [];
    for (const segment of listing.segments) if (segment.ids.length) inner.push(jsonOf(segment).slice(1, -1));
    listing.json = `[${inner.join(',')}]`;
  }
  if (listing.json === undefined) {
    const flat = new Array<RowId | RowVersion>(listing.ids.length * 2);
    for (let i = 0; i < listing.ids.length; i++) {
      flat[2 * i] = listing.ids[i]!;
      flat[2 * i + 1] = listing.versions[i]!;
    }
    listing.json = JSON.stringify(flat);
  }
  return listing.json;
}

export { jsonOf as listingJson };

/** The parts a listing is stored as: its non-empty segments (undefined: stored flat). */
export function storedParts(listing: Listing): readonly Listing[] | undefined {
  return listing.segments?.filter((segment) => segment.ids.length > 0);
}

/** What the listing's row holds: its pairs, or (a listing by parts) its parts' ids. */
export function storedText(listing: Listing): string {
  const parts = storedParts(listing);
  return parts ? JSON.stringify({ parts: parts.map(listingId) }) : jsonOf(listing);
}

/** The listing's id: a hash of its stored text (equal content listed alike, equal id, whoever listed it). */
export function listingId(listing: Listing): string {
  if (listing.id === undefined) listing.id = createHash('sha256').update(storedText(listing)).digest('base64url').slice(0, 32);
  return listing.id;
}

/** The part ids of a stored listing by parts; undefined for a flat one. */
export function partsOfStored(text: string): string[] | undefined {
  return text.startsWith('{') ? (JSON.parse(text) as { parts: string[] }).parts : undefined;
}

/** A listing by parts from its parts (read back from their rows), under its stored id. */
export function fromParts(parts: readonly Listing[], id: string): Listing {
  return new SegmentedListing(parts, id);
}

/** A listing from its stored JSON; the text is kept, so its id costs no re-encoding. */
export function parseListing(json: string, id?: string): Listing {
  const flat = JSON.parse(json) as (RowId | RowVersion)[];
  const n = flat.length / 2;
  const ids = new Array<RowId>(n);
  const versions = new Array<RowVersion>(n);
  for (let i = 0; i < n; i++) {
    ids[i] = flat[2 * i]!;
    versions[i] = flat[2 * i + 1]!;
  }
  return { ids, versions, json, ...(id === undefined ? {} : { id }) };
}

/** The CVR row's `entries`: view → listing id. */
export function encodeRefs(views: Record<string, Listing>): string {
  const refs: Record<string, string> = {};
  for (const [name, listing] of Object.entries(views)) refs[name] = listingId(listing);
  return JSON.stringify(refs);
}

/**
 * A CVR row's `entries`: view → listing id, or (rows written before shared listings) view → the
 * listing inline, returned as listings at once.
 */
export function decodeRefs(text: string): { refs: Record<string, string>; inline: Record<string, Listing> } {
  const parsed = JSON.parse(text) as Record<string, string | (RowId | RowVersion)[]>;
  const refs: Record<string, string> = {};
  const inline: Record<string, Listing> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value === 'string') refs[name] = value;
    else inline[name] = parseListing(JSON.stringify(value));
  }
  return { refs, inline };
}

export type ViewDiff = {
  puts: RowId[];
  dels: RowId[];
  /**
   * The put operations for this diff, per (company, view, audience), filled by the pull that meets
   * it first: a diff between two shared listings is the same for every user who had the first and
   * now gets the second, and by the version rule so are the values.
   */
  ops?: Map<string, Promise<unknown>>;
};

// prev listing → next listing → their diff (null: same content). Listings are immutable and shared
// by everyone of a company with the same view, so after a change the 50 pulls of a poke diff once.
const memo = new WeakMap<Listing, WeakMap<Listing, ViewDiff | null>>();

/** Ids new or with another version (puts), ids no longer listed (dels); null when nothing differs. */
export function diffListings(a: Listing | undefined, b: Listing | undefined): ViewDiff | null {
  if (a && b) {
    if (a === b) return null;
    let byNext = memo.get(a);
    if (!byNext) memo.set(a, (byNext = new WeakMap()));
    const hit = byNext.get(b);
    if (hit !== undefined) return hit;
    const d = sameListing(a, b) ? null : computeDiff(a, b);
    byNext.set(b, d);
    return d;
  }
  return computeDiff(a, b);
}

function computeDiff(a: Listing | undefined, b: Listing | undefined): ViewDiff | null {
  if (a?.segments && b?.segments) return diffSegments(a.segments, b.segments);
  const puts: RowId[] = [];
  const dels: RowId[] = [];
  if (b) {
    const before = a ? indexOf(a) : undefined;
    // Versions only need to differ: composite versions (strings) have no order.
    for (let i = 0; i < b.ids.length; i++) if (before?.get(b.ids[i]!) !== b.versions[i]) puts.push(b.ids[i]!);
  }
  if (a) {
    const after = b ? indexOf(b) : undefined;
    for (const id of a.ids) if (!after?.has(id)) dels.push(id);
  }
  return puts.length || dels.length ? { puts, dels } : null;
}

/**
 * Two segmented listings: a segment both share holds the same ids at the same versions, and an id
 * is in one segment only, so only the segments of one that the other lacks are compared.
 */
function diffSegments(a: readonly Listing[], b: readonly Listing[]): ViewDiff | null {
  const inA = new Set(a);
  const inB = new Set(b);
  const before = new Map<RowId, RowVersion>();
  for (const segment of a) if (!inB.has(segment)) for (let i = 0; i < segment.ids.length; i++) before.set(segment.ids[i]!, segment.versions[i]!);
  const after = new Set<RowId>();
  const puts: RowId[] = [];
  for (const segment of b) {
    if (inA.has(segment)) continue;
    for (let i = 0; i < segment.ids.length; i++) {
      const id = segment.ids[i]!;
      after.add(id);
      if (before.get(id) !== segment.versions[i]) puts.push(id);
    }
  }
  const dels: RowId[] = [];
  for (const id of before.keys()) if (!after.has(id)) dels.push(id);
  return puts.length || dels.length ? { puts, dels } : null;
}

/** Per view: what differs between two CVRs' listings. */
export function diffViews(prev: Record<string, Listing>, next: Record<string, Listing>): Record<string, ViewDiff> {
  const out: Record<string, ViewDiff> = {};
  for (const name of new Set([...Object.keys(prev), ...Object.keys(next)])) {
    const d = diffListings(prev[name], next[name]);
    if (d) out[name] = d;
  }
  return out;
}

export function sameClients(a: Record<string, number>, b: Record<string, number>): boolean {
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => a[k] === b[k]);
}
