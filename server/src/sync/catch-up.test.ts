// Back online, a mutation made offline leaves at once (DESIGN §12), not when Replicache's backoff
// next allows it. Real Replicache clients in Node against the real server, through a network the
// test cuts (test/outage.ts): the network stays down until Replicache has failed 8 pushes (its next
// try is then 30 ms · 2^7 = 3.84 s away), comes back, and then the one cause under test must bring
// the mutation to the server within 2 s.
import type { Setting } from '@zapdesk/sync';
import { createApiClient, createNodeReplicache } from '@zapdesk/sync/node';
import type { OnlineEvents } from '@zapdesk/sync/replicache';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/harness.ts';
import { memoryRefreshStore, startLiveApp, waitFor, type LiveApp } from '../../test/live.ts';
import { startOutageProxy } from '../../test/outage.ts';
import { seedCompany, seedTicket, seedUser } from '../../test/seed.ts';

const FAILED_PUSHES = 8;
const SOON_MS = 2_000;

/** A stand-in for the browser's `window` that tells whether anyone still listens. */
function onlineTarget() {
  const target = new EventTarget();
  const listening = new Set<() => void>();
  return {
    addEventListener(type: 'online', listener: () => void) {
      listening.add(listener);
      target.addEventListener(type, listener);
    },
    removeEventListener(type: 'online', listener: () => void) {
      listening.delete(listener);
      target.removeEventListener(type, listener);
    },
    goOnline: () => target.dispatchEvent(new Event('online')),
    listeners: () => listening.size,
  };
}

describe.each(DIALECTS)('catching up when back online (%s)', (dialect) => {
  let live: LiveApp;
  const cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    live = await startLiveApp(dialect);
  });
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup().catch(() => {});
    await live.close();
  });

  /** An admin's client behind a network the test can cut, with two pending tickets to accept. */
  async function openDesk(opts: { pokes: boolean; onlineEvents?: OnlineEvents }) {
    const company = await seedCompany(live);
    const admin = await seedUser(live, company.id, { profile: 'admin' });
    const tickets = [(await seedTicket(live, company.id, { status: 'pending' })).id, (await seedTicket(live, company.id, { status: 'pending' })).id];
    const net = await startOutageProxy(live.url);
    let failedPushes = 0;
    const countingFetch: typeof fetch = async (input, init) => {
      try {
        return await fetch(input, init);
      } catch (err) {
        if (String(input).endsWith('/sync/push')) failedPushes++;
        throw err;
      }
    };
    const api = createApiClient({ baseUrl: net.url, refreshTokenStore: memoryRefreshStore(), fetch: countingFetch });
    const session = await api.login(admin.email, admin.password);
    const client = createNodeReplicache({ api, userId: admin.id, companyId: company.id, pullInterval: null, pokes: opts.pokes, onlineEvents: opts.onlineEvents ?? null });
    cleanups.push(() => client.close(), () => net.close());
    await client.pokes?.whenOpen();
    await waitFor(() => client.rep.query((tx) => tx.has(`ticket/${tickets[1]}`)), 10_000, 'the first pull');

    const token = session.token;
    const isOpenOnServer = async (id: number) => (await live.request('GET', `/tickets/${id}`, { token })).body.status === 'open';
    return {
      client,
      tickets,
      userId: admin.id,
      /** Cuts the network, accepts the first ticket, lets Replicache back off for seconds, restores the network. */
      async acceptWhileOffline() {
        await net.cut();
        await waitFor(() => !client.pokes?.isOpen(), 5_000, 'the poke socket to drop');
        await client.rep.mutate.acceptTicket({ ticketId: tickets[0]!, userId: admin.id });
        // Meanwhile the server changes something only a pull brings (the client gets no poke).
        expect((await live.request('PUT', '/settings/userRating', { token, body: { value: 'enabled' } })).status).toBe(200);
        await waitFor(() => failedPushes >= FAILED_PUSHES, 15_000, 'Replicache to back off');
        expect(await isOpenOnServer(tickets[0]!)).toBe(false);
        await net.restore();
      },
      /** Gives the cause, then measures the time until the server has every ticket open (at most SOON_MS). */
      async msUntilOpen(cause: () => unknown, ids = [tickets[0]!]) {
        const start = performance.now();
        await cause();
        await waitFor(async () => (await Promise.all(ids.map(isOpenOnServer))).every(Boolean), SOON_MS, 'the accepted ticket on the server');
        return Math.round(performance.now() - start);
      },
      /** The change made on the server while offline, pulled (the client got no poke for it). */
      pulled: () => waitFor(async () => (await client.rep.query((tx) => tx.get('setting/userRating')) as Setting | undefined)?.value === 'enabled', SOON_MS, 'the pull'),
    };
  }

  it("pushes and pulls at once on the browser's online event, and stops listening on close", async () => {
    const online = onlineTarget();
    const desk = await openDesk({ pokes: false, onlineEvents: online });
    expect(online.listeners()).toBe(1);
    await desk.acceptWhileOffline();
    const ms = await desk.msUntilOpen(() => online.goOnline());
    expect(ms).toBeLessThan(SOON_MS);
    await desk.pulled();
    await desk.client.close();
    expect(online.listeners()).toBe(0);
  });

  it('pushes and pulls at once when the poke socket is back', async () => {
    const desk = await openDesk({ pokes: true });
    await desk.acceptWhileOffline();
    // The socket's next try, now (what the online event does in a browser).
    const ms = await desk.msUntilOpen(async () => {
      desk.client.pokes!.wake();
      await desk.client.pokes!.whenOpen();
    });
    expect(ms).toBeLessThan(SOON_MS);
    await desk.pulled();
  });

  it('pushes at once when the user makes a mutation after a failed push', async () => {
    const desk = await openDesk({ pokes: false });
    await desk.acceptWhileOffline();
    const [first, second] = desk.tickets as [number, number];
    const ms = await desk.msUntilOpen(() => desk.client.rep.mutate.acceptTicket({ ticketId: second, userId: desk.userId }), [first, second]);
    expect(ms).toBeLessThan(SOON_MS);
  });
});
