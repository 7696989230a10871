// The mutation trigger of the catch-up (replicache-catch-up.ts) in a real Replicache: it fires for
// the app's mutations, never for the replays Replicache runs when a pull rebases pending ones
// (the whole catch-up against the real server: server/src/sync/catch-up.test.ts).
import { Replicache, type PullResponseV1, type WriteTransaction } from 'replicache';
import { describe, expect, it } from 'vitest';
import { isRetryableFailure, onInitialMutation } from './replicache-catch-up.ts';

const OK = { httpStatusCode: 200, errorMessage: '' };

describe('the catch-up', () => {
  it('calls back after a mutation of the app, not after its replay on a pull', async () => {
    const reasons: string[] = [];
    let callbacks = 0;
    const mutators = onInitialMutation(
      {
        async setCount(tx: WriteTransaction, n: number) {
          reasons.push(tx.reason);
          await tx.set('count', n);
        },
      },
      () => void callbacks++,
    );
    let order = 0;
    const rep = new Replicache({
      name: `catch-up-${crypto.randomUUID()}`,
      kvStore: 'mem',
      mutators,
      pullInterval: null,
      // The server never confirms the mutation, so each pull replays it on the new state.
      pusher: async () => ({ httpRequestInfo: OK }),
      puller: async () => {
        const response: PullResponseV1 = { cookie: ++order, lastMutationIDChanges: {}, patch: [{ op: 'put', key: 'order', value: order }] };
        return { response, httpRequestInfo: OK };
      },
    });
    try {
      await rep.mutate.setCount(1);
      await rep.pull({ now: true });
      await expect.poll(() => reasons).toContain('rebase');
      expect(reasons[0]).toBe('initial');
      expect(callbacks).toBe(1);
    } finally {
      await rep.close();
    }
  });

  it('retries sooner after a network or server failure only', () => {
    expect([0, 500, 503, 200, 401, 403, 404].map(isRetryableFailure)).toEqual([true, true, true, false, false, false, false]);
  });
});
