// The check every test of a slice makes (src/db/slices.ts): the work, run in slices of 2, lets
// another company's write through before it is done.
import { randomUUID } from 'node:crypto';
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
