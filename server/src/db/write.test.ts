// The one write path (write.ts) on a fresh database of each dialect: a write's effects run only
// after its commit, a failed write leaves nothing and has only its rollback effects, and on SQLite
// writes arriving together share a transaction (group commit) yet still succeed or fail alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { seedTenant } from '../../test/seed.ts';
import { tenant } from './tenant.ts';
import { write } from './write.ts';

describe.each(DIALECTS)('write() on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('runs effects after the commit only; a failed write leaves nothing and runs only its rollback effects', async () => {
    const { company } = await seedTenant(t);
    const seen: string[] = [];
    const tags = () => tenant(t.db, company.id).selectFrom('tags').select('name').orderBy('name').execute();
    await write(t.deps, async (tx) => {
      await tenant(tx.db, company.id).insertInto('tags', { name: 'kept', color: '#111111' }).execute();
      tx.effects.afterCommit(() => seen.push('kept: after commit'));
      tx.effects.onRollback(() => seen.push('kept: rolled back'));
      // Not yet committed: the effect has not run.
      expect(seen).toEqual([]);
    });
    expect(seen).toEqual(['kept: after commit']);

    await expect(
      write(t.deps, async (tx) => {
        await tenant(tx.db, company.id).insertInto('tags', { name: 'lost', color: '#222222' }).execute();
        tx.effects.afterCommit(() => seen.push('lost: after commit'));
        tx.effects.onRollback(() => seen.push('lost: rolled back'));
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(seen).toEqual(['kept: after commit', 'lost: rolled back']);
    expect(await tags()).toEqual([{ name: 'kept' }]);
  });

  it('writes arriving together each commit or fail alone, each caller hearing its own outcome', async () => {
    const { company } = await seedTenant(t);
    const committed: number[] = [];
    const outcomes = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) =>
        write(t.deps, async (tx) => {
          await tenant(tx.db, company.id).insertInto('tags', { name: `tag ${i}`, color: '#333333' }).execute();
          // Every third write breaks a constraint after its insert: only it is undone.
          if (i % 3 === 0) await tenant(tx.db, company.id).insertInto('tags', { name: `tag ${i}`, color: '#333333', id: 1 }).execute();
          tx.effects.afterCommit(() => committed.push(i));
          return i;
        }),
      ),
    );
    const ok = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    expect(ok).toEqual(Array.from({ length: 30 }, (_, i) => i).filter((i) => i % 3 !== 0));
    expect(outcomes.filter((o) => o.status === 'rejected')).toHaveLength(10);
    expect(committed.sort((a, b) => a - b)).toEqual(ok);
    const names = (await tenant(t.db, company.id).selectFrom('tags').select('name').execute()).map((r) => r.name);
    expect(names.sort()).toEqual(ok.map((i) => `tag ${i}`).sort());
  });
});
