// The one write path (write.ts) on a fresh database of each dialect: a write's effects run only
// after its commit, a failed write leaves nothing and has only its rollback effects, and on SQLite
// writes arriving together share a transaction (group commit) yet still succeed or fail alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../../test/harness.ts';
import { seedTenant } from '../../test/seed.ts';
import { tenant } from './tenant.ts';
import { openDatabase, runFirst, soleWriter, transactionFirst } from './database.ts';
import { attempt, breathe, write, writeInOrder } from './write.ts';

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

  it('writes in order stop after a refusal; a write marked first goes before the writes waiting', async () => {
    const { company } = await seedTenant(t);
    const order: string[] = [];
    const insert = (name: string) => async (tx: Parameters<Parameters<typeof write>[1]>[0]) => {
      order.push(name);
      await tenant(tx.db, company.id).insertInto('tags', { name, color: '#333333' }).execute();
      if (name === 'w3') throw new Error('refused');
      return name;
    };
    const series = writeInOrder(t.deps, ['w1', 'w2', 'w3', 'w4'].map(insert), (o) => !o.ok);
    // Queued after the series (SQLite queues the whole series at once), yet run before what waits.
    const urgent = write(t.deps, insert('urgent'), { first: true });
    const outcomes = [];
    for await (const o of series) outcomes.push(o.ok ? o.value : 'refused');
    await urgent;
    expect(outcomes).toEqual(['w1', 'w2', 'refused']);
    // w4 never ran; on SQLite the urgent write jumped the queue (w1 was already running).
    expect(order.filter((n) => n !== 'urgent')).toEqual(['w1', 'w2', 'w3']);
    if (dialect === 'sqlite') expect(order.indexOf('urgent')).toBeLessThan(order.indexOf('w3'));
    const names = (await tenant(t.db, company.id).selectFrom('tags').select('name').orderBy('name').execute()).map((r) => r.name);
    expect(names).toEqual(['urgent', 'w1', 'w2']);
  });

  it('attempt undoes what its function wrote and the effects it registered, and the write goes on', async () => {
    const { company } = await seedTenant(t);
    const seen: string[] = [];
    await write(t.deps, async (tx) => {
      const failed = await attempt(tx, async (inner) => {
        await tenant(inner.db, company.id).insertInto('tags', { name: 'undone', color: '#444444' }).execute();
        inner.effects.afterCommit(() => seen.push('undone: after commit'));
        inner.effects.onRollback(() => seen.push('undone: rolled back'));
        throw new Error('refused');
      });
      expect(failed).toMatchObject({ ok: false });
      const passed = await attempt(tx, async (inner) => {
        await tenant(inner.db, company.id).insertInto('tags', { name: 'done', color: '#555555' }).execute();
        inner.effects.afterCommit(() => seen.push('done: after commit'));
      });
      expect(passed).toEqual({ ok: true });
      expect(seen).toEqual(['undone: rolled back']);
    });
    expect(seen).toEqual(['undone: rolled back', 'done: after commit']);
    const names = (await tenant(t.db, company.id).selectFrom('tags').select('name').execute()).map((r) => r.name);
    expect(names).toEqual(['done']);
  });
});

describe('runFirst on sqlite', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => t.close());

  /** A tag insert of `company`, as a compiled statement runFirst can take. */
  const tagInsert = (companyId: number, name: string) => tenant(t.db, companyId).insertInto('tags', { name, color: '#333333' }).compile();

  it('goes before the statements waiting for the writer', async () => {
    const { company } = await seedTenant(t);
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // A group of writes: the first holds its transaction until released, three more queued behind it.
    const holding = write(t.deps, async (tx) => {
      order.push('write 1 starts');
      await gate;
      await tenant(tx.db, company.id).insertInto('tags', { name: 'w1', color: '#111111' }).execute();
    });
    const later = [2, 3, 4].map((n) =>
      write(t.deps, async (tx) => {
        order.push(`write ${n} starts`);
        await tenant(tx.db, company.id).insertInto('tags', { name: `w${n}`, color: '#111111' }).execute();
      }),
    );
    await new Promise((r) => setTimeout(r, 20));
    // Waiting behind the group: a plain statement, then one asked to go first.
    const plain = t.db.executeQuery(tagInsert(company.id, 'plain')).then(() => order.push('plain done'));
    // (The plain statement reaches the writer's queue after a few turns of Kysely's own.)
    await new Promise((r) => setTimeout(r, 10));
    const first = runFirst(t.db, tagInsert(company.id, 'first')).then(() => order.push('first done'));
    await new Promise((r) => setTimeout(r, 20));
    release();
    await Promise.all([holding, ...later, plain, first]);
    // The order the rows were written in (their ids): the group ended after its running write,
    // the statement asked to go first went next, before the plain one queued earlier and before the
    // group's other writes.
    const written = (await tenant(t.db, company.id).selectFrom('tags').select('name').orderBy('id').execute()).map((r) => r.name);
    expect(written).toEqual(['w1', 'first', 'plain', 'w2', 'w3', 'w4']);
    expect(order[0]).toBe('write 1 starts');
  });

  it('a transaction asked to go first goes before the writes waiting, and ends a group after its running write', async () => {
    const { company } = await seedTenant(t);
    let first: Promise<unknown> | undefined;
    const writes = [1, 2, 3].map((n) =>
      write(t.deps, async (tx) => {
        if (n === 1) {
          first = transactionFirst(t.db, async (trx) => {
            await tenant(trx, company.id).insertInto('tags', { name: 'first-a', color: '#333333' }).execute();
            await tenant(trx, company.id).insertInto('tags', { name: 'first-b', color: '#333333' }).execute();
          });
          // Queued after it, not asked to go first: waits for its turn.
          void t.db.transaction().execute((trx) => tenant(trx, company.id).insertInto('tags', { name: 'plain', color: '#333333' }).execute());
        }
        await tenant(tx.db, company.id).insertInto('tags', { name: `w${n}`, color: '#111111' }).execute();
      }),
    );
    await Promise.all(writes);
    await first;
    await waitForTag(company.id, 'plain');
    const written = (await tenant(t.db, company.id).selectFrom('tags').select('name').orderBy('id').execute()).map((r) => r.name);
    expect(written.slice(0, 3)).toEqual(['w1', 'first-a', 'first-b']);
    expect(written.slice(3).sort()).toEqual(['plain', 'w2', 'w3']);
  });

  const waitForTag = async (companyId: number, name: string) => {
    for (let i = 0; i < 100; i++) {
      if (await tenant(t.db, companyId).selectFrom('tags').select('id').where('name', '=', name).executeTakeFirst()) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`tag ${name} never written`);
  };

  it('commits a write asked to go first at once: the writes queued behind it go in the next transaction', async () => {
    const { company } = await seedTenant(t);
    const events: string[] = [];
    const insert = (name: string) => async (tx: Parameters<Parameters<typeof write>[1]>[0]) => {
      events.push(`${name} runs`);
      await tenant(tx.db, company.id).insertInto('tags', { name, color: '#222222' }).execute();
    };
    let urgent: Promise<unknown> | undefined;
    const writes = ['w1', 'w2', 'w3'].map((name) =>
      write(t.deps, async (tx) => {
        // Asked while the group's first write runs (a send the network took, to be recorded).
        if (name === 'w1') urgent = write(t.deps, insert('urgent'), { first: true }).then(() => events.push('urgent committed'));
        await insert(name)(tx);
      }),
    );
    await Promise.all(writes);
    await urgent;
    // The urgent write ran next and its caller heard the commit before w2 ran (before, it waited
    // for w2 and w3 in the same transaction).
    expect(events).toEqual(['w1 runs', 'urgent runs', 'urgent committed', 'w2 runs', 'w3 runs']);
  });

  it('starts a write a customer waits on before the turn’s other callbacks; a plain write waits for the turn', async () => {
    const { company } = await seedTenant(t);
    const events: string[] = [];
    const handles: unknown[] = [];
    const insert = (name: string) => async (tx: Parameters<Parameters<typeof write>[1]>[0]) => {
      events.push(`${name} runs`);
      handles.push(tx.db);
      await tenant(tx.db, company.id).insertInto('tags', { name, color: '#222222' }).execute();
    };
    setImmediate(() => events.push('immediate'));
    // A write started in the same turn after it joins its transaction.
    await Promise.all([write(t.deps, insert('soon'), { soon: true }), write(t.deps, insert('joined'))]);
    await new Promise((r) => setImmediate(r));
    // The immediate may come before 'joined' runs: a group lets the event loop run between its
    // writes once it held the thread SLICE_MS (4 ms), which one insert took under CI's load once.
    expect(events[0]).toBe('soon runs');
    expect([...events].sort()).toEqual(['immediate', 'joined runs', 'soon runs']);
    expect(handles[0]).toBe(handles[1]);

    events.length = 0;
    setImmediate(() => events.push('immediate'));
    await write(t.deps, insert('plain'));
    expect(events).toEqual(['immediate', 'plain runs']);
    const written = (await tenant(t.db, company.id).selectFrom('tags').select('name').orderBy('id').execute()).map((r) => r.name);
    expect(written).toEqual(['soon', 'joined', 'plain']);
  });

  it('ends a group of writes after its running write, and the group goes on after it', async () => {
    const { company } = await seedTenant(t);
    let first: Promise<unknown> | undefined;
    const writes = [1, 2, 3, 4].map((n) =>
      write(t.deps, async (tx) => {
        // Asked while the group's first write runs (the outbox claims while pushes are written).
        if (n === 1) first = runFirst(t.db, tagInsert(company.id, 'first'));
        await tenant(tx.db, company.id).insertInto('tags', { name: `w${n}`, color: '#111111' }).execute();
      }),
    );
    await Promise.all(writes);
    await first;
    const written = (await tenant(t.db, company.id).selectFrom('tags').select('name').orderBy('id').execute()).map((r) => r.name);
    expect(written).toEqual(['w1', 'first', 'w2', 'w3', 'w4']);
  });
});

describe('a long group of writes on sqlite', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
  });
  afterAll(async () => t.close());

  /** Holds the thread, as a write's statements and JavaScript do. */
  const busy = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };

  it('lets the event loop run between its writes and at a breathe point; reads meanwhile see the last commit; writes arriving meanwhile join it', async () => {
    const { company } = await seedTenant(t);
    const tags = () => tenant(t.db, company.id).selectFrom('tags').select('name').orderBy('id').execute();
    const order: string[] = [];
    const seenMeanwhile: string[][] = [];
    let joined: Promise<unknown> | undefined;
    // Work of the event loop that comes due while the group runs, with a read and a write.
    const meanwhile = () => {
      order.push('event loop');
      void tags().then((rows) => seenMeanwhile.push(rows.map((r) => r.name)));
      joined = write(t.deps, async (tx) => {
        order.push('joined write');
        await tenant(tx.db, company.id).insertInto('tags', { name: 'joined', color: '#111111' }).execute();
      });
    };
    const long = (name: string) =>
      write(t.deps, async (tx) => {
        order.push(`${name} starts`);
        await tenant(tx.db, company.id).insertInto('tags', { name: `${name}-a`, color: '#111111' }).execute();
        if (name === 'first') setImmediate(meanwhile);
        busy(6);
        await breathe(tx);
        order.push(`${name} goes on`);
        await tenant(tx.db, company.id).insertInto('tags', { name: `${name}-b`, color: '#111111' }).execute();
      });
    await Promise.all([long('first'), long('second')]);
    await joined;
    // The first write let go at its breathe point: the timer ran, its read saw nothing of the open
    // transaction, and its write joined the group after the two queued ones.
    expect(order).toEqual(['first starts', 'event loop', 'first goes on', 'second starts', 'second goes on', 'joined write']);
    expect(seenMeanwhile).toEqual([[]]);
    expect((await tags()).map((r) => r.name)).toEqual(['first-a', 'first-b', 'second-a', 'second-b', 'joined']);
  });

  it('gives the writer at once to a statement asked to go first while it lets the event loop run', async () => {
    const { company } = await seedTenant(t);
    const order: string[] = [];
    let first: Promise<unknown> | undefined;
    await Promise.all(
      [1, 2].map((n) =>
        write(t.deps, async (tx) => {
          await tenant(tx.db, company.id).insertInto('tags', { name: `w${n}`, color: '#111111' }).execute();
          if (n !== 1) return;
          // An outbox lane's claim, from a timer that comes due while this write holds the thread.
          setTimeout(() => {
            first = runFirst(t.db, tenant(t.db, company.id).insertInto('tags', { name: 'first', color: '#333333' }).compile()).then(() => order.push('first done'));
          }, 0);
          busy(6);
          // Queued before the group lets go: without the hand-over, it would run before the group
          // came back to commit for the claim.
          setImmediate(() => order.push('the rest of the turn'));
        }),
      ),
    );
    await first;
    expect(order).toEqual(['first done', 'the rest of the turn']);
    const written = (await tenant(t.db, company.id).selectFrom('tags').select('name').orderBy('id').execute()).map((r) => r.name);
    expect(written).toEqual(['w1', 'first', 'w2']);
  });

  it('keeps the thread while another handle of this process is open on the file (it would wait on the lock holding the thread)', async () => {
    const { company } = await seedTenant(t);
    expect(soleWriter(t.db)).toBe(true);
    const other = openDatabase(t.deps.config.databaseUrl).db;
    try {
      expect(soleWriter(t.db)).toBe(false);
      const order: string[] = [];
      await Promise.all([
        write(t.deps, async (tx) => {
          await tenant(tx.db, company.id).insertInto('tags', { name: 'mine', color: '#111111' }).execute();
          setImmediate(() => order.push('event loop'));
          busy(6);
          await breathe(tx);
          order.push('write goes on');
        }),
        write({ ...t.deps, db: other }, (tx) => tenant(tx.db, company.id).insertInto('tags', { name: 'theirs', color: '#111111' }).execute()),
      ]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(order).toEqual(['write goes on', 'event loop']);
      expect((await tenant(t.db, company.id).selectFrom('tags').select('name').orderBy('name').execute()).map((r) => r.name)).toEqual(['mine', 'theirs']);
    } finally {
      await other.destroy();
    }
    expect(soleWriter(t.db)).toBe(true);
  });
});
