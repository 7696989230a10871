// Checkpoints off the writer's thread: a WAL past a few megabytes is copied back into the database
// file by the checkpointer's worker while writes go on, and everything written reads back, before
// and after the database is closed and opened again.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { startCheckpointer } from './checkpointer.ts';
import { checkpointStats, openDatabase } from './database.ts';

describe('SQLite checkpointer', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'zapdesk-checkpoint-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('copies a growing WAL back into the database file on its own thread; nothing written is lost', async () => {
    const file = path.join(dir, 'data.db');
    const { db } = openDatabase(file);
    await sql`create table blobs (id integer primary key, body text not null)`.execute(db);
    const body = 'x'.repeat(4000);
    const insertSome = async (from: number, n: number) => {
      await db.transaction().execute(async (trx) => {
        for (let i = from; i < from + n; i++) await sql`insert into blobs (id, body) values (${i}, ${body})`.execute(trx);
      });
    };
    // ~8 MB of WAL, far below the writer's own backstop (10,000 pages): only the worker copies.
    for (let i = 0; i < 10; i++) await insertSome(i * 200, 200);
    expect(statSync(`${file}-wal`).size).toBeGreaterThan(4 * 1024 * 1024);
    const stats = checkpointStats(db)!;
    const deadline = Date.now() + 10_000;
    while (stats.framesCopied === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(stats.failures).toBe(0);
    expect(stats.framesCopied).toBeGreaterThan(1_000);
    // Writes go on during and after checkpoints.
    await insertSome(2_000, 100);
    expect((await sql<{ n: number }>`select count(*) as n from blobs`.execute(db)).rows[0]!.n).toBe(2_100);
    // The file itself holds the copied pages: the database grew while the WAL was not yet removed.
    expect(statSync(file).size).toBeGreaterThan(7 * 1024 * 1024);
    await db.destroy();

    const again = openDatabase(file).db;
    expect((await sql<{ n: number; last: number }>`select count(*) as n, max(id) as last from blobs`.execute(again)).rows[0]).toEqual({ n: 2_100, last: 2_099 });
    await again.destroy();
  });

  it('past restartFrames it checkpoints again holding the writer’s turn, and the next write starts the WAL over', async () => {
    const file = path.join(dir, 'restart.db');
    const writer = new SQLite(file);
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('create table blobs (id integer primary key, body text not null)');
    const insert = writer.prepare('insert into blobs (body) values (?)');
    for (let i = 0; i < 1_500; i++) insert.run('x'.repeat(4000));
    let turns = 0;
    const checkpointer = startCheckpointer(file, { everyMs: 60_000, fromBytes: 0, restartFrames: 1_000, lockWriter: async (fn) => (turns++, fn()) });
    try {
      await checkpointer.checkpoint();
      expect(turns).toBe(1);
      expect(checkpointer.stats).toMatchObject({ closing: 1, failures: 0 });
      insert.run('after the checkpoint');
      // Started over: the WAL holds only the last write's frames.
      const [state] = writer.pragma('wal_checkpoint(PASSIVE)') as { log: number }[];
      expect(state!.log).toBeLessThan(10);
      expect(writer.prepare('select count(*) as n from blobs').get()).toEqual({ n: 1_501 });
    } finally {
      await checkpointer.close();
      writer.close();
    }
  });

  it('a database in memory has no checkpointer', async () => {
    const { db } = openDatabase(':memory:');
    expect(checkpointStats(db)).toBeUndefined();
    await db.destroy();
  });
});
