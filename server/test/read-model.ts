// One read model per entity (issue 12): the REST answer for a row and the value its sync view puts
// under that row's key must be the same object, valid under the entity's wire schema. These helpers
// read the synced side through POST /sync/pull, as a client does, and compare.
import { expect } from 'vitest';
import type { z } from 'zod';
import type { TestApp } from './harness.ts';

type Patch = { op: string; key?: string; value?: unknown }[];

/** A client of the sync view: each `pull` continues from the previous one's cookie, so it sees what changed since. */
export function syncClient(t: TestApp, token: string) {
  const clientGroupID = `read-model-${crypto.randomUUID()}`;
  let cookie: unknown = null;
  const values = new Map<string, unknown>();
  return {
    /** Pulls and applies the patch; answers the keys it put. */
    async pull(): Promise<string[]> {
      const res = await t.request('POST', '/sync/pull', { token, body: { pullVersion: 1, schemaVersion: '', profileID: 'p', clientGroupID, cookie } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const { patch } = res.body as { cookie: unknown; patch: Patch };
      cookie = res.body.cookie;
      const put: string[] = [];
      for (const op of patch) {
        if (op.op === 'clear') values.clear();
        if (op.op === 'del') values.delete(op.key!);
        if (op.op === 'put') {
          values.set(op.key!, op.value);
          put.push(op.key!);
        }
      }
      return put;
    },
    /** The value the client holds under a key. */
    get: (key: string) => values.get(key),
  };
}

/** The two transports agree on the row, and what they send is exactly the wire schema (nothing stripped, nothing missing). */
export function expectOneReadModel<S extends z.ZodType>(schema: S, rest: unknown, synced: unknown): void {
  expect(rest).toBeDefined();
  expect(synced).toEqual(rest);
  expect(schema.parse(rest)).toEqual(rest);
}
