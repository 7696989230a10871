// The check every test of a slice makes (src/db/slices.ts): the work, run in slices of 2, lets
// another company's write through before it is done.
import { randomUUID } from 'node:crypto';
import { CompiledQuery, createQueryId, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { expect } from 'vitest';
import { inSlices } from '../src/db/slices.ts';
import { tenant } from '../src/db/tenant.ts';
import { write, type Tx } from '../src/db/write.ts';
import type { TestApp } from './harness.ts';

/**
 * Runs `slice` to the end, 2 rows at a time, while another company writes once. SQLite has one
 * writer: that write must be done while `left()` still finds work (the work went in short writes,
 * not one). PostgreSQL runs the two transactions side by side: there only the end is awaited.
 */
export async function sliceBesideAnotherWrite(t: TestApp, otherCompanyId: number, slice: (tx: Tx, limit: number) => Promise<number>, left: () => Promise<boolean>): Promise<void> {
  let done = false;
  const running = inSlices(t.deps, slice, 2).then(() => {
    done = true;
  });
  await write(t.deps, (tx) => tenant(tx.db, otherCompanyId).insertInto('tags', { name: `meanwhile ${randomUUID()}`, color: '#ffffff' }).execute());
  if (t.deps.dialect === 'sqlite') {
    expect(done, 'the work ended before the other write got through').toBe(false);
    expect(await left(), 'no work left when the other write got through').toBe(true);
  }
  await running;
}

/**
 * Runs `slice` once, in a write of its own, and answers SQLite's plan (EXPLAIN QUERY PLAN) of each
 * statement it made, as it ran (the compiled text, then database.ts's rewriting on the way to
 * SQLite); on PostgreSQL, which plans by statistics, no plans. A slice holds the one writer: each
 * of its statements must search an index, neither scan a table nor walk all of the company's rows,
 * which `expectSearches` checks. Foreign keys' actions are not in these plans: the reference-index
 * test checks their look-ups.
 */
export async function slicePlans(t: TestApp, slice: (tx: Tx, limit: number) => Promise<number>, limit: number): Promise<string[]> {
  const nodes: RootOperationNode[] = [];
  const recorder: KyselyPlugin = {
    transformQuery: ({ node }) => {
      nodes.push(node);
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  await write(t.deps, (tx) => slice({ ...tx, db: tx.db.withPlugin(recorder) as Tx['db'] }, limit));
  if (t.deps.dialect !== 'sqlite') return [];
  const plans: string[] = [];
  for (const node of nodes) {
    const { sql, parameters } = t.db.getExecutor().compileQuery(node, createQueryId());
    const rows = (await t.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${sql}`, [...parameters]))).rows;
    plans.push(`${sql}\n    ${rows.map((r) => r.detail).join(' | ')}`);
  }
  return plans;
}

/** No plan scans a table or searches by the company alone (see slicePlans). */
export function expectSearches(plans: string[]): void {
  expect(plans.length, 'no statement recorded').toBeGreaterThan(0);
  const bad = plans.filter((p) => /\bSCAN (?!\d+ CONSTANT ROW)/.test(p) || /\(company_id=\?\)/.test(p));
  expect(bad).toEqual([]);
}
