// The prepared-statement cache of SQLite's handles (database.ts): the same SQL gets the same
// statement while it is in use, and the cache stays bounded however many texts it meets.
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { cachePreparedStatements } from './database.ts';

describe('cachePreparedStatements', () => {
  let sqlite: SQLite.Database;
  afterEach(() => sqlite.close());

  const open = (max: number) => {
    sqlite = new SQLite(':memory:');
    sqlite.exec('create table t (id integer primary key, v text)');
    const prepared: string[] = [];
    const raw = sqlite.prepare.bind(sqlite);
    sqlite.prepare = ((source: string) => (prepared.push(source), raw(source))) as typeof sqlite.prepare;
    cachePreparedStatements(sqlite, max);
    return prepared;
  };
  const text = (i: number) => `select v from t where id = ${i}`;

  it('answers the same statement for the same text, prepared once', () => {
    const prepared = open(10);
    const first = sqlite.prepare(text(1));
    expect(sqlite.prepare(text(1))).toBe(first);
    sqlite.prepare('insert into t (v) values (?)').run('a');
    expect(sqlite.prepare(text(1)).get()).toEqual({ v: 'a' });
    expect(prepared).toEqual([text(1), 'insert into t (v) values (?)']);
  });

  it('keeps a statement in use across generations and prepares again one left unused, holding at most its bound', () => {
    const prepared = open(10);
    const kept = sqlite.prepare(text(0));
    for (let i = 1; i <= 40; i++) {
      sqlite.prepare(text(i));
      // Used between every other text: never the least recently used.
      expect(sqlite.prepare(text(0))).toBe(kept);
    }
    expect(prepared.filter((s) => s === text(0))).toHaveLength(1);
    // Text 1 was left unused for 39 others: prepared again, a new statement.
    const before = prepared.length;
    sqlite.prepare(text(1));
    expect(prepared.length).toBe(before + 1);
    // The most recent texts come back without a prepare; of the 41, no more than the bound stay cached.
    const again = prepared.length;
    for (let i = 38; i <= 40; i++) sqlite.prepare(text(i));
    expect(prepared.length).toBe(again);
    for (let i = 2; i <= 37; i++) sqlite.prepare(text(i));
    expect(prepared.length - again).toBeGreaterThanOrEqual(36 - 10);
  });
});
