// A user's client view as pulls bring it (POST /sync/pull): what the web and the CLI hold under
// each key. The read-model tests compare these values with the REST answers for the same rows.
import type { TestApp } from './harness.ts';

let seq = 0;

type Patch = { op: string; key?: string; value?: unknown }[];
export type Pulled = { cookie: unknown; puts: Map<string, unknown>; dels: string[] };

/** A fresh client group id for `pull` (the caller's own from then on). */
export const newClientGroup = () => `sync-values-${Date.now().toString(36)}-${++seq}`;

/** One pull of a client group from `cookie` (null: the first pull, everything put). */
export async function pull(t: TestApp, token: string, clientGroupID = newClientGroup(), cookie: unknown = null): Promise<Pulled> {
  const res = await t.request('POST', '/sync/pull', { token, body: { pullVersion: 1, schemaVersion: '', profileID: 'p', clientGroupID, cookie } });
  if (res.status !== 200 || !Array.isArray(res.body?.patch)) throw new Error(`pull failed: ${res.status} ${JSON.stringify(res.body)}`);
  const patch = res.body.patch as Patch;
  return {
    cookie: res.body.cookie,
    puts: new Map(patch.filter((p) => p.op === 'put' && p.key !== undefined).map((p) => [p.key!, p.value])),
    dels: patch.filter((p) => p.op === 'del' && p.key !== undefined).map((p) => p.key!),
  };
}

/** The value a first pull puts under `key` (undefined when the key is not in the user's view). */
export async function pullValue(t: TestApp, token: string, key: string): Promise<unknown> {
  return (await pull(t, token)).puts.get(key);
}
