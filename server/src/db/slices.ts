// Work on many rows as a series of short writes. SQLite has one writer: a single write that
// changes a company's 100,000 rows holds it for seconds, and every other company's messages wait
// that long. `slice` changes at most `limit` rows in the write it is given and answers how many it
// changed; it runs again, each time in a write of its own, until it changes fewer. Other writes go
// in between; what was done stays done if the process dies midway, so the caller's work must be
// one that can be started again (deleting what is left, letting go of what still holds on).
//
// A slice reads its rows' ids first (through the company's index), then writes by id: the same two
// statements on both dialects (PostgreSQL has no DELETE … LIMIT), and the ids serve what else the
// slice does with them (pokes, the next table's rows). The one-statement form, `… WHERE id IN
// (SELECT id … LIMIT n)`, once scanned the whole table on SQLite: database.ts's preferPrimaryKey put
// its unary plus on the subquery's company term too (a connection's 100,000 messages: 5.4 s of
// slices for what one write did in 0.9 s); it now leaves a subquery's term alone.
import { write, type EffectSinks, type Tx } from './write.ts';

/**
 * Rows per slice. Measured on SQLite: deleting a message costs ~45 µs (its indexes and triggers), so
 * a slice of them held the writer 20–70 ms.
 */
export const SLICE_ROWS = 500;

export async function inSlices(deps: EffectSinks, slice: (tx: Tx, limit: number) => Promise<number>, limit = SLICE_ROWS): Promise<void> {
  while ((await write(deps, (tx) => slice(tx, limit))) === limit);
}
