// The real app on a real port (HTTP and the /sync/ws socket), for tests and benchmarks that drive
// real Replicache clients in Node against it.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createApiClient, createNodeReplicache, type RefreshTokenStore } from '@zapdesk/sync/node';
import type { Config } from '../src/config.ts';
import type { Dialect } from '../src/db/database.ts';
import { attachSyncSocket } from '../src/realtime/ws.ts';
import { createTestApp } from './harness.ts';

export type LiveApp = Awaited<ReturnType<typeof startLiveApp>>;

/** An app's fetch served by @hono/node-server on a free loopback port, as `npm start` serves it. */
export async function listen(fetch: (req: Request) => Response | Promise<Response>) {
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s as Server)) as Server;
  });
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A test app (with these config overrides) served on a free port, with the /sync/ws socket. */
export async function startLiveApp(dialect: Dialect, overrides: Partial<Config> = {}) {
  const t = await createTestApp(dialect, overrides);
  const http = await listen(t.app.fetch);
  const socket = attachSyncSocket(http.server, t.deps);
  return {
    ...t,
    url: http.url,
    async close() {
      await socket.close();
      await http.close();
      await t.close();
    },
  };
}

export function memoryRefreshStore(): RefreshTokenStore & { value: string | null } {
  const store = { value: null as string | null, get: () => store.value, set: (v: string | null) => void (store.value = v) };
  return store;
}

/** Signs a user in through the API and opens a real Replicache client with pokes (no polling by default). */
export async function connectClient(
  live: { url: string },
  user: { email: string; password: string },
  opts: { pullInterval?: number | null; storeFile?: string } = {},
) {
  const authEvents: string[] = [];
  const loggedOut: string[] = [];
  const api = createApiClient({ baseUrl: live.url, refreshTokenStore: memoryRefreshStore(), onLogout: (e) => void loggedOut.push(e.code) });
  const session = await api.login(user.email, user.password);
  const client = createNodeReplicache({
    api,
    userId: session.user.id,
    companyId: session.user.companyId,
    pullInterval: opts.pullInterval === undefined ? null : opts.pullInterval,
    storeFile: opts.storeFile,
    onAuth: (reason) => void authEvents.push(reason),
  });
  await client.pokes?.whenOpen();
  return { api, session, ...client, authEvents, loggedOut };
}

/** Polls until `check` returns a truthy value (or throws after `timeoutMs`). */
export async function waitFor<T>(check: () => Promise<T> | T, timeoutMs = 10_000, what = 'condition'): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
