// Presence (presence.ts, jobs/presence.ts): users.online follows the user's sync sockets, as the
// users API, the dashboard and the synced user rows show it, and never touches another company.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createApp } from '../app.ts';
import type { AppDeps } from '../context.ts';
import { tenant } from '../db/tenant.ts';
import { markStaleUsersOffline } from '../jobs/presence.ts';
import { DIALECTS, createTestApp, type TestApp } from '../../test/harness.ts';
import { waitFor } from '../../test/live.ts';
import { loginAs, seedCompany, seedUser } from '../../test/seed.ts';
import { createPgBus } from './bus.ts';
import { createRealtime } from './hub.ts';
import { PRESENCE_STALE_MS } from './presence.ts';
import { attachSyncSocket } from './ws.ts';
import { bumpVersion } from '../sync/version.ts';

// Long enough for a reconnect on a busy machine (two cores, several test files at once).
const GRACE_MS = 1_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One server instance of the app on a real port with the sync socket (tests shorten the grace period). */
async function startInstance(deps: AppDeps, opts: { pingIntervalMs?: number; touchMs?: number } = {}) {
  const app = createApp(deps);
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server)) as Server;
  });
  const socket = attachSyncSocket(server, deps, { pingIntervalMs: opts.pingIntervalMs, presence: { graceMs: GRACE_MS, touchMs: opts.touchMs } });
  const wsUrl = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/sync/ws`;
  return {
    /** Opens a sync socket and waits for `ready`; `events` collects what the server sent. */
    async open(token: string) {
      const ws = new WebSocket(`${wsUrl}?token=${encodeURIComponent(token)}`);
      const events: { type: string; reason?: string }[] = [];
      const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
      await new Promise<void>((resolve, reject) => {
        ws.on('message', (data) => {
          const m = JSON.parse(String(data)) as { type: string };
          events.push(m);
          if (m.type === 'ready') resolve();
        });
        ws.on('error', reject);
      });
      return { ws, events, closed };
    },
    async close() {
      await socket.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function closeSocket(s: { ws: WebSocket; closed: Promise<number> }) {
  s.ws.close();
  await s.closed;
}

describe.each(DIALECTS)('presence (%s)', (dialect) => {
  let t: TestApp;
  let instance: Awaited<ReturnType<typeof startInstance>>;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    instance = await startInstance(t.deps);
  });
  afterAll(async () => {
    await instance.close();
    await t.close();
  });

  async function seedPair() {
    const company = await seedCompany(t);
    const admin = await seedUser(t, company.id, { profile: 'admin' });
    const user = await seedUser(t, company.id);
    return { company, admin, user, adminSession: await loginAs(t, admin), userSession: await loginAs(t, user) };
  }

  const onlineOf = async (token: string, userId: number) => {
    const res = await t.request('GET', `/users/${userId}`, { token });
    expect(res.status).toBe(200);
    return res.body.online as boolean;
  };
  const versionOf = async (companyId: number, userId: number) =>
    (await tenant(t.db, companyId).selectFrom('users').select('users.version').where('users.id', '=', userId).executeTakeFirstOrThrow()).version;

  type Patch = { op: string; key?: string; value?: { online?: boolean } }[];
  /** A Replicache pull as the admin's client: the patch since `cookie` and the next cookie. */
  const pull = async (token: string, group: string, cookie: unknown = null) => {
    const res = await t.request('POST', '/sync/pull', { token, body: { pullVersion: 1, clientGroupID: group, cookie, profileID: 'p', schemaVersion: '' } });
    expect(res.status).toBe(200);
    return res.body as { cookie: unknown; patch: Patch };
  };
  const syncedOnline = (patch: Patch, userId: number) => patch.find((p) => p.op === 'put' && p.key === `user/${userId}`)?.value?.online;

  it('a socket turns the user online (users API, dashboard, synced row); closing it turns them offline after the grace period', async () => {
    const { company, user, adminSession, userSession } = await seedPair();
    const other = await seedPair();
    const otherVersions = [await versionOf(other.company.id, other.admin.id), await versionOf(other.company.id, other.user.id)];
    const group = `g-admin-${company.id}`;
    const first = await pull(adminSession.token, group);
    expect(syncedOnline(first.patch, user.id)).toBe(false);
    const watcher = await instance.open(adminSession.token);

    const socket = await instance.open(userSession.token);
    await waitFor(() => onlineOf(adminSession.token, user.id), 5_000, 'online');
    // The admin's client was poked and its next pull carries the row, now online.
    await waitFor(() => watcher.events.some((e) => e.type === 'poke'), 5_000, 'poke');
    const second = await pull(adminSession.token, group, first.cookie);
    expect(syncedOnline(second.patch, user.id)).toBe(true);
    const dashboard = await t.request('GET', '/dashboard', { token: adminSession.token });
    expect(dashboard.body.attendants).toEqual(expect.arrayContaining([expect.objectContaining({ id: user.id, online: true })]));

    const closedAt = Date.now();
    await closeSocket(socket);
    await sleep(GRACE_MS / 4);
    expect(await onlineOf(adminSession.token, user.id)).toBe(true);
    await waitFor(async () => !(await onlineOf(adminSession.token, user.id)), 5_000, 'offline');
    expect(Date.now() - closedAt).toBeGreaterThanOrEqual(GRACE_MS);
    const third = await pull(adminSession.token, group, second.cookie);
    expect(syncedOnline(third.patch, user.id)).toBe(false);
    expect((await t.request('GET', '/dashboard', { token: adminSession.token })).body.attendants).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: user.id, online: false })]),
    );
    // Another company's users were never written.
    expect([await versionOf(other.company.id, other.admin.id), await versionOf(other.company.id, other.user.id)]).toEqual(otherVersions);
    expect(await onlineOf(other.adminSession.token, other.user.id)).toBe(false);
    await closeSocket(watcher);
  });

  it('a reload within the grace period does not flicker: the row is not written again', async () => {
    const { company, user, adminSession, userSession } = await seedPair();
    const first = await instance.open(userSession.token);
    await waitFor(() => onlineOf(adminSession.token, user.id), 5_000, 'online');
    const version = await versionOf(company.id, user.id);
    await closeSocket(first);
    const second = await instance.open(userSession.token);
    await sleep(GRACE_MS + 500);
    expect(await onlineOf(adminSession.token, user.id)).toBe(true);
    expect(await versionOf(company.id, user.id)).toBe(version);
    await closeSocket(second);
    await waitFor(async () => !(await onlineOf(adminSession.token, user.id)), 5_000, 'offline');
  });

  it('two sockets keep the user online until both are closed', async () => {
    const { user, adminSession, userSession } = await seedPair();
    const a = await instance.open(userSession.token);
    const b = await instance.open(userSession.token);
    await waitFor(() => onlineOf(adminSession.token, user.id), 5_000, 'online');
    await closeSocket(a);
    await sleep(GRACE_MS + 500);
    expect(await onlineOf(adminSession.token, user.id)).toBe(true);
    await closeSocket(b);
    await waitFor(async () => !(await onlineOf(adminSession.token, user.id)), 5_000, 'offline');
  });

  it('logout turns the user offline at once and ends their sockets', async () => {
    const { user, adminSession, userSession } = await seedPair();
    const socket = await instance.open(userSession.token);
    await waitFor(() => onlineOf(adminSession.token, user.id), 5_000, 'online');
    const res = await t.request('DELETE', '/auth/logout', { token: userSession.token, cookie: userSession.cookie });
    expect(res.status).toBe(200);
    expect(await onlineOf(adminSession.token, user.id)).toBe(false);
    expect(await socket.closed).toBe(4003);
    expect(socket.events).toContainEqual({ type: 'auth', reason: 'logout' });
    await sleep(GRACE_MS + 500);
    expect(await onlineOf(adminSession.token, user.id)).toBe(false);
  });

  it('the heartbeat refreshes last_seen_at and puts back online a user marked offline while connected', async () => {
    const { company, user, adminSession, userSession } = await seedPair();
    // The ping interval is also the pong deadline (a socket missing one pong is dropped), and the
    // client answers from this same process: at 50 ms a busy CI machine's event loop dropped the
    // socket now and then, and with it the heartbeats this test waits for.
    const beating = await startInstance(t.deps, { pingIntervalMs: 250, touchMs: 0 });
    try {
      await beating.open(userSession.token);
      await waitFor(() => onlineOf(adminSession.token, user.id), 5_000, 'online');
      const seen = async () => Date.parse((await tenant(t.db, company.id).selectFrom('users').select('users.lastSeenAt').where('users.id', '=', user.id).executeTakeFirstOrThrow()).lastSeenAt!);
      const before = await seen();
      await waitFor(async () => (await seen()) > before, 5_000, 'a touch');
      // The job running as if the heartbeats had stopped long ago: offline, then the next beat says otherwise.
      await markStaleUsersOffline(t.deps, new Date(Date.now() + 10 * PRESENCE_STALE_MS));
      await waitFor(() => onlineOf(adminSession.token, user.id), 15_000, 'online again');
    } finally {
      await beating.close();
    }
  });

  it('the job marks offline the online users whose instance stopped touching them, and leaves fresh ones', async () => {
    const a = await seedPair();
    const b = await seedPair();
    const dead = await startInstance(t.deps);
    await dead.open(a.userSession.token);
    await waitFor(() => onlineOf(a.adminSession.token, a.user.id), 5_000, 'online');
    // The instance stops without closing anything: its users stay online for now.
    await dead.close();
    await sleep(GRACE_MS + 500);
    expect(await onlineOf(a.adminSession.token, a.user.id)).toBe(true);

    const now = new Date();
    const at = (msAgo: number) => new Date(now.getTime() - msAgo).toISOString();
    await tenant(t.db, a.company.id).updateTable('users').set({ online: 1, lastSeenAt: at(5_000), ...bumpVersion() }).where('users.id', '=', a.admin.id).execute();
    await tenant(t.db, b.company.id).updateTable('users').set({ online: 1, lastSeenAt: at(5_000), ...bumpVersion() }).where('users.id', '=', b.user.id).execute();
    const untouched = [await versionOf(a.company.id, a.admin.id), await versionOf(b.company.id, b.user.id), await versionOf(b.company.id, b.admin.id)];

    // Not stale yet at the user's last touch + a little: nothing changes.
    expect((await markStaleUsersOffline(t.deps, now)).get(a.company.id)).toBeUndefined();
    const later = new Date(now.getTime() + PRESENCE_STALE_MS);
    await tenant(t.db, a.company.id).updateTable('users').set({ lastSeenAt: later.toISOString() }).where('users.id', '=', a.admin.id).execute();
    await tenant(t.db, b.company.id).updateTable('users').set({ lastSeenAt: later.toISOString() }).where('users.id', '=', b.user.id).execute();
    const marked = await markStaleUsersOffline(t.deps, later);
    expect(marked.get(a.company.id)).toBe(1);
    expect(marked.get(b.company.id)).toBeUndefined();
    expect(await onlineOf(a.adminSession.token, a.user.id)).toBe(false);
    expect(await onlineOf(a.adminSession.token, a.admin.id)).toBe(true);
    expect(await onlineOf(b.adminSession.token, b.user.id)).toBe(true);
    expect(await onlineOf(b.adminSession.token, b.admin.id)).toBe(false);
    expect([await versionOf(a.company.id, a.admin.id), await versionOf(b.company.id, b.user.id), await versionOf(b.company.id, b.admin.id)]).toEqual(untouched);
  });

  it.runIf(dialect === 'postgres')('across instances: the user stays online while another instance holds a socket of theirs', async () => {
    const { user, adminSession, userSession } = await seedPair();
    const log = t.log;
    const realtime = createRealtime({ log, bus: await createPgBus(t.deps.config.databaseUrl, log) });
    const two = await startInstance({ ...t.deps, realtime });
    try {
      const here = await instance.open(userSession.token);
      const there = await two.open(userSession.token);
      await waitFor(() => onlineOf(adminSession.token, user.id), 5_000, 'online');
      await closeSocket(here);
      await sleep(GRACE_MS + 500);
      expect(await onlineOf(adminSession.token, user.id)).toBe(true);
      await closeSocket(there);
      await waitFor(async () => !(await onlineOf(adminSession.token, user.id)), 5_000, 'offline');
    } finally {
      await two.close();
      await realtime.close();
    }
  });
});
