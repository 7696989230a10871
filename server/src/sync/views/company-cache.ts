// What every pull of a company reads alike (its active tickets, the names their values show), read
// once while the tables it comes from stand still, and shared by the pulls of all its users. After a
// change, fifty users' pulls ask for the same rows: the first reads them, the others wait for that read.
import type { Database } from '../../db/database.ts';
import type { ViewContext } from './types.ts';

type Entry = { key: string; value: Promise<unknown> };

// Per database (tests run many in one process), per name and company: the latest read only.
const entriesByDb = new WeakMap<Database, Map<string, Entry>>();

/**
 * `read()` as of the company's counters of `tables`, shared while they stand still. The counters of a
 * pull are read before any of its rows, so what is read under a key is at least as new as the key
 * says; a change in between only costs one more read next time. Outside a pull (no counters), and
 * for a read that failed, nothing is kept. The caller must not change what it gets.
 */
export function sharedByCompany<T>(ctx: ViewContext, name: string, tables: readonly string[], read: () => Promise<T>): Promise<T> {
  const versions = ctx.tableVersions;
  if (!versions) return read();
  const key = tables.map((t) => versions.get(t) ?? 0).join('.');
  let entries = entriesByDb.get(ctx.db);
  if (!entries) entriesByDb.set(ctx.db, (entries = new Map()));
  const slot = `${name}|${ctx.actor.companyId}`;
  const cached = entries.get(slot);
  if (cached?.key === key) return cached.value as Promise<T>;
  const value = read();
  const entry = { key, value };
  entries.set(slot, entry);
  value.catch(() => entries.get(slot) === entry && entries.delete(slot));
  return value;
}
