// Segmented listings (a view listed by parts, cvr.ts) must diff and encode exactly as the same
// pairs listed flat: only the work differs.
import { describe, expect, it } from 'vitest';
import { diffListings, fromParts, listingId, listingJson, parseListing, partsOfStored, storedParts, storedText, toListing, toSegmentedListing } from './cvr.ts';
import type { VersionRow } from './views/types.ts';

// A deterministic pseudo-random sequence, so a failure reproduces.
function random(seed: number) {
  return () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
}

const part = (ticket: number, n: number, version = 1): VersionRow[] => Array.from({ length: n }, (_, i) => ({ id: `${ticket}/${ticket * 100 + i}`, version: `${version}:1.0` }));
const sorted = (d: { puts: unknown[]; dels: unknown[] } | null) => d && { puts: [...d.puts].sort(), dels: [...d.dels].sort() };

describe('segmented listings', () => {
  it('encode their pairs as the flat listing does, and are stored as the list of their parts', () => {
    const parts = [part(1, 3), [], part(2, 2), part(3, 1)];
    const segmented = toSegmentedListing(parts);
    const flat = toListing(parts.flat());
    expect(listingJson(segmented)).toBe(listingJson(flat));
    expect(parseListing(listingJson(segmented)).ids).toEqual(flat.ids);
    expect(listingJson(toSegmentedListing([[], []]))).toBe('[]');

    // Stored: each non-empty part a flat listing of its own, and the list of their ids.
    const stored = storedParts(segmented)!;
    expect(stored.map((p) => p.ids.length)).toEqual([3, 2, 1]);
    expect(partsOfStored(storedText(segmented))).toEqual(stored.map(listingId));
    expect(partsOfStored(storedText(flat))).toBeUndefined();
    // Read back from the parts' rows: the same pairs, the same id.
    const back = fromParts(stored.map((p) => parseListing(storedText(p), listingId(p))), listingId(segmented));
    expect(back.ids).toEqual(flat.ids);
    expect(back.versions).toEqual(flat.versions);
    expect(listingId(toSegmentedListing(parts))).toBe(listingId(segmented));
    // One part changed: one new part id, the others the same.
    const changed = toSegmentedListing([part(1, 3), [], part(2, 2, 2), part(3, 1)]);
    expect(partsOfStored(storedText(changed))!.filter((id, i) => id !== partsOfStored(storedText(segmented))![i])).toHaveLength(1);
  });

  it('share a segment object for a part kept as the same array', () => {
    const kept = part(1, 5);
    const a = toSegmentedListing([kept, part(2, 1)]);
    const b = toSegmentedListing([kept, part(2, 2)]);
    expect(a.segments![0]).toBe(b.segments![0]);
    expect(a.segments![1]).not.toBe(b.segments![1]);
  });

  it('diff as the flat listings do, over random changes of parts', () => {
    const next = random(7);
    // The parts by ticket, and the order the view lists the tickets in.
    let parts = Array.from({ length: 40 }, (_, t) => part(t, Math.floor(next() * 6)));
    let order = parts.map((_, t) => t);
    const listed = (p: VersionRow[][], o: number[]) => o.map((t) => p[t]!);
    for (let round = 0; round < 300; round++) {
      const before = listed(parts, order);
      parts = [...parts];
      for (let k = 0; k < 1 + Math.floor(next() * 3); k++) {
        const t = Math.floor(next() * 40);
        const choice = next();
        if (choice < 0.3) parts[t] = part(t, Math.floor(next() * 6), round + 2); // every version moves
        else if (choice < 0.5) parts[t] = []; // the ticket left the view
        else if (choice < 0.7) parts[t] = [...parts[t]!.slice(1), { id: `${t}/${t * 100 + 50 + round}`, version: 1 }]; // a new message, the oldest leaves the window
        else parts[t] = [...parts[t]!]; // same pairs, another array
      }
      if (next() < 0.1) order = [...order].reverse(); // the tickets' order changed
      const after = listed(parts, order);
      const segmented = diffListings(toSegmentedListing(before), toSegmentedListing(after));
      const flat = diffListings(toListing(before.flat()), toListing(after.flat()));
      expect(sorted(segmented), `round ${round}`).toEqual(sorted(flat));
    }
  });
});
