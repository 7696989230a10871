// Real Replicache clients in Node against the real server on a fresh database and a real port.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Connection, MutationError, QuickMessage, Setting, User } from '@zapdesk/sync';
import { createApiClient, nodeSocketFactory } from '@zapdesk/sync/node';
import { createReplicache, listMutationErrors } from '@zapdesk/sync/replicache';
import type WebSocket from 'ws';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tenant } from '../db/tenant.ts';
import { DIALECTS } from '../../test/harness.ts';
import { connectClient, memoryRefreshStore, startLiveApp, waitFor, type LiveApp } from '../../test/live.ts';
import { seedCompany, seedConnection, seedPlan, seedUser } from '../../test/seed.ts';
import { bumpVersion } from './version.ts';

type Client = Awaited<ReturnType<typeof connectClient>>;

const get = <T>(c: Client, key: string) => c.rep.query((tx) => tx.get(key)) as Promise<T | undefined>;
const keys = (c: Client) => c.rep.query((tx) => tx.scan().keys().toArray());

describe.each(DIALECTS)('sync with real Replicache clients (%s)', (dialect) => {
  let live: LiveApp;
  const clients: Client[] = [];
  const connect = async (...args: Parameters<typeof connectClient>) => {
    const c = await connectClient(...args);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    live = await startLiveApp(dialect);
  });
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => {});
    await live.close();
  });

  async function seedTeam() {
    const plan = await seedPlan(live);
    const company = await seedCompany(live, { planId: plan.id });
    const admin = await seedUser(live, company.id, { profile: 'admin' });
    const user = await seedUser(live, company.id, { profile: 'user' });
    return { plan, company, admin, user };
  }

  it('shows a mutation of client A in client B after the poke, without B polling', async () => {
    const { admin, user } = await seedTeam();
    const a = await connect(live, admin);
    const dir = mkdtempSync(path.join(tmpdir(), 'zapdesk-rep-'));
    const b = await connect(live, user, { storeFile: path.join(dir, 'b.db') });
    await waitFor(() => get<Setting>(b, 'setting/userRating'), 10_000, 'first pull of B');
    expect((await get<Setting>(b, 'setting/userRating'))?.value).toBe('disabled');

    await a.rep.mutate.updateSetting({ key: 'userRating', value: 'enabled' });
    expect((await get<Setting>(a, 'setting/userRating'))?.value).toBe('enabled'); // optimistic
    await waitFor(async () => (await get<Setting>(b, 'setting/userRating'))?.value === 'enabled', 10_000, 'poke to B');
  });

  /**
   * A client whose socket traffic the test sees: what it sends, and (with `tamper`) the messages it
   * receives, rewritten before the client reads them.
   */
  async function connectWatched(user: { email: string; password: string }, tamper?: (m: { type: string; pull?: { request: { cookie: unknown } } }) => void) {
    const sent: string[] = [];
    let answered = 0;
    // A pull over HTTP (the client's fallback while its socket is down or slow) counts as one too.
    const watchedFetch: typeof fetch = async (input, init) => {
      const isPull = String(input).endsWith('/sync/pull');
      if (isPull) sent.push('{"type":"pull","over":"http"}');
      try {
        return await fetch(input, init);
      } finally {
        if (isPull) answered++;
      }
    };
    const api = createApiClient({ baseUrl: live.url, refreshTokenStore: memoryRefreshStore(), fetch: watchedFetch });
    const session = await api.login(user.email, user.password);
    const client = createReplicache({
      api,
      userId: session.user.id,
      companyId: session.user.companyId,
      kvStore: 'mem',
      pullInterval: null,
      createSocket: (url) => {
        const socket = nodeSocketFactory(url);
        const ws = socket as unknown as WebSocket;
        const send = socket.send.bind(socket);
        socket.send = (data) => {
          sent.push(data);
          send(data);
        };
        ws.on('message', (data) => {
          if (String(data).startsWith('{"type":"pull"')) answered++;
        });
        if (tamper) {
          // The client's onmessage handler gets each message after the tampering.
          let handler: typeof socket.onmessage = null;
          ws.on('message', (data) => {
            const m = JSON.parse(String(data)) as Parameters<typeof tamper>[0];
            tamper(m);
            handler?.({ data: JSON.stringify(m) });
          });
          Object.defineProperty(ws, 'onmessage', { get: () => handler, set: (h: typeof socket.onmessage) => void (handler = h) });
        }
        return socket;
      },
    });
    clients.push({ ...client, authEvents: [], loggedOut: [], api, session } as unknown as Client);
    await client.pokes!.whenOpen();
    await waitFor(() => client.rep.query((tx) => tx.get('setting/userRating')), 10_000, 'first pull');
    // Settled: the pulls of its start (and the pokes they cause) are over, every one answered, once
    // a quiet spell passes (a pull still under way could bring the change the test makes next).
    const pullsSent = () => sent.filter((m) => m.startsWith('{"type":"pull"')).length;
    let count = sent.length;
    await waitFor(async () => {
      await new Promise((r) => setTimeout(r, 150));
      const settled = sent.length === count && answered === pullsSent();
      count = sent.length;
      return settled;
    }, 10_000, 'the client to settle');
    const rating = async () => ((await client.rep.query((tx) => tx.get('setting/userRating'))) as Setting | undefined)?.value;
    return { ...client, sent, rating };
  }

  it('applies the patch a poke brings: after the change, B sends no pull of its own', async () => {
    const { admin, user } = await seedTeam();
    const a = await connect(live, admin);
    const b = await connectWatched(user);
    const before = b.sent.length;
    await a.rep.mutate.updateSetting({ key: 'userRating', value: 'enabled' });
    await waitFor(async () => (await b.rating()) === 'enabled', 10_000, 'poke to B');
    expect(b.sent.slice(before).filter((m) => m.includes('"pull"'))).toEqual([]);
  });

  it('pulls when the patch a poke brings does not start from the client’s cookie', async () => {
    const { admin, user } = await seedTeam();
    const a = await connect(live, admin);
    // Every answer B is brought claims to start from a cookie B does not hold.
    const b = await connectWatched(user, (m) => {
      if (m.type === 'poke' && m.pull) m.pull.request.cookie = { order: 999_999 };
    });
    const before = b.sent.length;
    await a.rep.mutate.updateSetting({ key: 'userRating', value: 'enabled' });
    await waitFor(async () => (await b.rating()) === 'enabled', 10_000, 'B’s own pull');
    expect(b.sent.slice(before).filter((m) => m.includes('"pull"')).length).toBeGreaterThan(0);
  });

  it('applies the same push only once', async () => {
    const { company, admin } = await seedTeam();
    const a = await connect(live, admin);
    const body = {
      pushVersion: 1,
      schemaVersion: '',
      profileID: 'p',
      clientGroupID: `g-${company.id}-twice`,
      mutations: [{ id: 1, clientID: `c-${company.id}-twice`, name: 'updateSetting', args: { key: 'call', value: 'disabled' }, timestamp: 1 }],
    };
    const version = async () => (await tenant(live.db, company.id).selectFrom('settings').select('version').where('key', '=', 'call').executeTakeFirstOrThrow()).version;
    const before = await version();
    await a.api.post('/sync/push', body);
    await a.api.post('/sync/push', body);
    expect(await version()).toBe(before + 1);
    const pulled = await a.api.post<{ lastMutationIDChanges: Record<string, number> }>('/sync/pull', { pullVersion: 1, schemaVersion: '', profileID: 'p', clientGroupID: body.clientGroupID, cookie: null });
    expect(pulled.lastMutationIDChanges).toEqual({ [body.mutations[0]!.clientID]: 1 });
  });

  it('records a business error and goes on with the mutations behind it', async () => {
    const { company, user } = await seedTeam();
    const u = await connect(live, user);
    await waitFor(() => get(u, `user/${user.id}`), 10_000, 'first pull');
    await u.rep.mutate.updateSetting({ key: 'userRating', value: 'enabled' }); // not an admin
    await u.rep.mutate.updateMyName({ userId: user.id, name: 'Renamed User' });

    await waitFor(async () => (await get<User>(u, `user/${user.id}`))?.name === 'Renamed User' && (await u.rep.experimentalPendingMutations()).length === 0, 10_000, 'queue drained');
    const row = await tenant(live.db, company.id).selectFrom('users').select('name').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.name).toBe('Renamed User');
    // The refused change is undone locally and its reason is in the view.
    expect((await get<Setting>(u, 'setting/userRating'))?.value).toBe('disabled');
    const errors = await waitFor(async () => {
      const list = await u.rep.query(listMutationErrors);
      return list.length ? list : undefined;
    });
    expect(errors).toEqual([expect.objectContaining<Partial<MutationError>>({ name: 'updateSetting', code: 'ERR_NO_PERMISSION', mutationID: 1, clientID: await u.rep.clientID })]);
  });

  it('removes rows that leave the view and brings them back', async () => {
    const { company, admin, user } = await seedTeam();
    const other = await seedUser(live, company.id);
    const own = await tenant(live.db, company.id).insertInto('quickMessages', { shortcode: 'mine', message: 'hi', geral: 0, userId: user.id }).returning('id').executeTakeFirstOrThrow();
    const conn = await seedConnection(live, company.id);
    await tenant(live.db, company.id).updateTable('whatsapps').set({ token: 'secret-token', ...bumpVersion() }).where('id', '=', conn.id).execute();
    const u = await connect(live, user);
    await waitFor(() => get(u, `quickMessage/${own.id}`), 10_000, 'own quick message');
    expect((await get<Connection>(u, `connection/${conn.id}`))?.token).toBeUndefined();

    const reassign = async (userId: number) => {
      await tenant(live.db, company.id).updateTable('quickMessages').set({ userId, version: sql`version + 1` }).where('id', '=', own.id).execute();
      live.deps.realtime.pokeCompany(company.id);
    };
    await reassign(other.id);
    await waitFor(async () => (await get(u, `quickMessage/${own.id}`)) === undefined, 10_000, 'row left the view');
    await reassign(user.id);
    await waitFor(() => get(u, `quickMessage/${own.id}`), 10_000, 'row came back');

    // A role change: the user becomes admin and now sees the connection's token; back to user, it is gone.
    const setProfile = async (profile: string) => {
      await tenant(live.db, company.id).updateTable('users').set({ profile, version: sql`version + 1` }).where('id', '=', user.id).execute();
      live.deps.realtime.pokeUsers(company.id, [user.id]);
    };
    await setProfile('admin');
    await waitFor(async () => (await get<Connection>(u, `connection/${conn.id}`))?.token === 'secret-token', 10_000, 'token shown');
    await setProfile('user');
    await waitFor(async () => (await get<Connection>(u, `connection/${conn.id}`))?.token === undefined, 10_000, 'token hidden');
    expect(admin.id).toBeGreaterThan(0);
  });

  it('never lets a client of company A see a row of company B, even with forged ids', async () => {
    const teamA = await seedTeam();
    const teamB = await seedTeam();
    const qmB = await tenant(live.db, teamB.company.id).insertInto('quickMessages', { shortcode: 'b', message: 'B only', geral: 1 }).returning('id').executeTakeFirstOrThrow();
    await seedConnection(live, teamB.company.id);
    const a = await connect(live, teamA.admin);
    const b = await connect(live, teamB.admin);
    await waitFor(() => get(a, `company/${teamA.company.id}`));
    await waitFor(() => get(b, `company/${teamB.company.id}`));

    // Forged ids in mutation args: refused, nothing of B changes.
    await a.rep.mutate.updateMyName({ userId: teamB.admin.id, name: 'Hijacked' });
    await waitFor(async () => (await a.rep.query(listMutationErrors)).length > 0, 10_000, 'refusal recorded');
    const bAdmin = await tenant(live.db, teamB.company.id).selectFrom('users').select('name').where('id', '=', teamB.admin.id).executeTakeFirstOrThrow();
    expect(bAdmin.name).not.toBe('Hijacked');

    // Forged client group and client ids of B: refused outright.
    await b.rep.mutate.updateSetting({ key: 'call', value: 'disabled' });
    await waitFor(async () => (await b.rep.experimentalPendingMutations()).length === 0, 10_000, 'B pushed');
    const groupB = await b.rep.clientGroupID;
    const pullB = await live.request('POST', '/sync/pull', { token: a.api.getToken()!, body: { pullVersion: 1, schemaVersion: '', profileID: 'p', clientGroupID: groupB, cookie: null } });
    expect(pullB.status).toBe(403);
    expect(pullB.body.error).toBe('ERR_NO_PERMISSION');
    const pushB = await live.request('POST', '/sync/push', {
      token: a.api.getToken()!,
      body: { pushVersion: 1, schemaVersion: '', profileID: 'p', clientGroupID: await a.rep.clientGroupID, mutations: [{ id: 1, clientID: await b.rep.clientID, name: 'updateSetting', args: { key: 'call', value: 'disabled' }, timestamp: 1 }] },
    });
    expect(pushB.status).toBe(403);

    const allKeys = await keys(a);
    const bUserIds = (await tenant(live.db, teamB.company.id).selectFrom('users').select('id').execute()).map((r) => `user/${r.id}`);
    expect(allKeys.filter((k) => bUserIds.includes(k))).toEqual([]);
    expect(allKeys).not.toContain(`company/${teamB.company.id}`);
    expect(allKeys).not.toContain(`quickMessage/${qmB.id}`);
    const values = await a.rep.query((tx) => tx.scan().values().toArray());
    expect(JSON.stringify(values)).not.toContain('B only');
    expect(JSON.stringify(values)).not.toContain('passwordHash');
  });

  it('resyncs in full when the CVR is lost', async () => {
    const { company, admin } = await seedTeam();
    const tags = await tenant(live.db, company.id).insertInto('tags', [{ name: 'keep' }, { name: 'gone' }]).returning(['id', 'name']).execute();
    const a = await connect(live, admin);
    await waitFor(() => get(a, `tag/${tags[1]!.id}`), 10_000, 'tags');
    const before = (await keys(a)).length;

    await tenant(live.db, company.id).deleteFrom('replicacheCvrs').execute();
    await tenant(live.db, company.id).deleteFrom('tags').where('id', '=', tags[1]!.id).execute();
    const added = await tenant(live.db, company.id).insertInto('tags', { name: 'new' }).returning('id').executeTakeFirstOrThrow();
    live.deps.realtime.pokeCompany(company.id);

    await waitFor(() => get(a, `tag/${added.id}`), 10_000, 'resync');
    expect(await get(a, `tag/${tags[1]!.id}`)).toBeUndefined();
    expect(await get(a, `tag/${tags[0]!.id}`)).toBeTruthy();
    expect((await keys(a)).length).toBe(before);
  });

  it('sends the auth event to a session replaced by a new login', async () => {
    const { user } = await seedTeam();
    const u = await connect(live, user);
    await live.request('POST', '/auth/login', { body: { email: user.email, password: user.password } });
    await waitFor(() => u.authEvents.length > 0, 10_000, 'auth event');
    expect(u.authEvents).toEqual(['replaced']);
    await waitFor(() => !u.pokes?.isOpen(), 10_000, 'socket closed');
  });

  it('brings a new announcement of the super-admin to clients of every company, and takes it away when deactivated', async () => {
    const platform = await seedCompany(live);
    const root = await seedUser(live, platform.id, { profile: 'admin', super: 1 });
    const token = (await live.request('POST', '/auth/login', { body: { email: root.email, password: root.password } })).body.token as string;
    const { user } = await seedTeam();
    const u = await connect(live, user);
    await waitFor(() => get(u, `user/${user.id}`), 10_000, 'first pull');

    // Nothing of the user's company changes: only the platform's counter moves.
    const created = await live.request('POST', '/announcements', { token, body: { title: 'Maintenance', text: 'Tonight at 22h' } });
    expect(created.status).toBe(201);
    const key = `announcement/${created.body.id as number}`;
    await waitFor(async () => (await get<{ title: string }>(u, key))?.title === 'Maintenance', 10_000, 'announcement shown');
    expect((await live.request('PUT', `/announcements/${created.body.id as number}`, { token, body: { status: false } })).status).toBe(200);
    await waitFor(async () => (await get(u, key)) === undefined, 10_000, 'inactive announcement gone');
  });

  it('keeps the shared quick messages and the own ones apart', async () => {
    const { company, admin, user } = await seedTeam();
    const t = tenant(live.db, company.id);
    const [shared, adminOwn] = await t
      .insertInto('quickMessages', [
        { shortcode: 'all', message: 'for all', geral: 1, userId: admin.id },
        { shortcode: 'adm', message: 'admin only', geral: 0, userId: admin.id },
      ])
      .returning('id')
      .execute();
    const u = await connect(live, user);
    await waitFor(() => get<QuickMessage>(u, `quickMessage/${shared!.id}`));
    expect(await get(u, `quickMessage/${adminOwn!.id}`)).toBeUndefined();
  });
});
