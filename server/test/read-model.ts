// One read model per entity (issue 12): the REST answer for a row and the value its sync view puts
// under that row's key must be the same object, valid under the entity's wire schema. These helpers
// read the synced side through POST /sync/pull, as a client does, and compare.
import { expect } from 'vitest';
import type { z } from 'zod';
import type { TestApp } from './harness.ts';

type Patch = { op: string; key?: string; value?: unknown }[];
export type PullPatch = { puts: Map<string, unknown>; dels: Set<string> };

/**
 * A client of the sync view: the first `pull` starts from no cookie (everything put), each next one
 * from the previous cookie, so it brings what changed since. `get` reads what the client holds.
 */
export function syncClient(t: TestApp, token: string) {
  const clientGroupID = `read-model-${crypto.randomUUID()}`;
  let cookie: unknown = null;
  const values = new Map<string, unknown>();
  return {
    async pull(): Promise<PullPatch> {
      const res = await t.request('POST', '/sync/pull', { token, body: { pullVersion: 1, schemaVersion: '', profileID: 'p', clientGroupID, cookie } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const { patch } = res.body as { cookie: unknown; patch: Patch };
      cookie = res.body.cookie;
      const pulled: PullPatch = { puts: new Map(), dels: new Set() };
      for (const op of patch) {
        if (op.op === 'clear') values.clear();
        if (op.op === 'del') {
          values.delete(op.key!);
          pulled.dels.add(op.key!);
        }
        if (op.op === 'put') {
          values.set(op.key!, op.value);
          pulled.puts.set(op.key!, op.value);
        }
      }
      return pulled;
    },
    get: (key: string) => values.get(key),
  };
}

/** The value a first pull of a new client puts under `key` (undefined when the key is not in the user's view). */
export async function pullValue(t: TestApp, token: string, key: string): Promise<unknown> {
  return (await syncClient(t, token).pull()).puts.get(key);
}

/** The two transports agree on the row, and what they send is exactly the wire schema (nothing stripped, nothing missing). */
export function expectOneReadModel<S extends z.ZodType>(schema: S, rest: unknown, synced: unknown): void {
  expect(rest).toBeDefined();
  expect(synced).toEqual(rest);
  expect(schema.parse(rest)).toEqual(rest);
}
