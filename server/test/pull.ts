// A Replicache client in a few lines, for tests that compare what the sync puts with what REST
// answers: each `pull()` sends POST /sync/pull from the last cookie (the first one from none, a full
// resync) and answers the puts and dels of that patch, by key.
import { expect } from 'vitest';
import type { TestApp } from './harness.ts';

let seq = 0;

export type PullPatch = { puts: Map<string, unknown>; dels: Set<string> };

export function puller(t: TestApp, token: string) {
  const clientGroupID = `pull-${process.pid}-${++seq}`;
  let cookie: unknown = null;
  return {
    async pull(): Promise<PullPatch> {
      const res = await t.request('POST', '/sync/pull', { token, body: { pullVersion: 1, schemaVersion: '', profileID: 'p', clientGroupID, cookie } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      cookie = res.body.cookie;
      const patch = res.body.patch as { op: string; key: string; value?: unknown }[];
      return {
        puts: new Map(patch.filter((p) => p.op === 'put').map((p) => [p.key, p.value])),
        dels: new Set(patch.filter((p) => p.op === 'del').map((p) => p.key)),
      };
    },
  };
}
