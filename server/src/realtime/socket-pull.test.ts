// Pulls over the poke socket (ws.ts): the same answers as POST /sync/pull, through the same checks,
// and bad messages never break the socket.
import { sql } from 'kysely';
import { tenant } from '../db/tenant.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DIALECTS } from '../../test/harness.ts';
import { startLiveApp, waitFor, type LiveApp } from '../../test/live.ts';
import { seedCompany, seedUser } from '../../test/seed.ts';
import { startPullThread, type PullThread } from '../sync/pull-thread.ts';
import { syncServiceOf } from '../sync/service.ts';

type Answer = { type: 'pull'; id: number; ok: boolean; body: Record<string, unknown> };
type Poke = { type: 'poke'; pull?: { request: Record<string, unknown>; response: { cookie: unknown; patch: { op: string; key?: string; value?: { name?: string } }[] } } };

// On the main thread, and on the pull thread (sync/pull-thread.ts) as startServer runs them.
const CASES = DIALECTS.flatMap((dialect) => [[dialect, 'main thread'] as const, [dialect, 'pull thread'] as const]);

describe.each(CASES)('pulls over the sync socket (%s, %s)', (dialect, where) => {
  let live: LiveApp;
  let thread: PullThread | undefined;
  const sockets: WebSocket[] = [];
  beforeAll(async () => {
    live = await startLiveApp(dialect);
    if (where === 'pull thread') {
      thread = startPullThread(live.deps, 'always');
      syncServiceOf(live.deps).useThread(thread);
      await thread.whenReady();
    }
  }, 60_000);
  afterAll(async () => {
    for (const s of sockets) s.terminate();
    await thread?.stop();
    await live.close();
  });

  async function signIn(profile: 'admin' | 'user' = 'user') {
    const company = await seedCompany(live);
    const user = await seedUser(live, company.id, { profile });
    const login = await live.request('POST', '/auth/login', { body: { email: user.email, password: user.password } });
    return { company, user, token: login.body.token as string };
  }

  async function open(token: string) {
    const ws = new WebSocket(`${live.url.replace(/^http/, 'ws')}/sync/ws?token=${encodeURIComponent(token)}`);
    sockets.push(ws);
    const answers = new Map<number, Answer>();
    const waiting = new Map<number, (a: Answer) => void>();
    const pokes: Poke[] = [];
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as { type: string };
      if (m.type === 'poke') pokes.push(m as Poke);
      if (m.type !== 'pull') return;
      const a = m as Answer;
      answers.set(a.id, a);
      waiting.get(a.id)?.(a);
    });
    await new Promise<void>((resolve, reject) => {
      ws.on('message', (data) => String(data).includes('"ready"') && resolve());
      ws.on('error', reject);
    });
    let id = 0;
    const pull = (body: unknown) =>
      new Promise<Answer>((resolve) => {
        const n = ++id;
        waiting.set(n, resolve);
        ws.send(JSON.stringify({ type: 'pull', id: n, body }));
      });
    return { ws, pull, pokes };
  }

  const req = (clientGroupID: string, cookie: unknown = null) => ({ pullVersion: 1, clientGroupID, cookie, profileID: 'p', schemaVersion: '' });

  it('answers a pull as POST /sync/pull does: the full view first, then the same cookie and no patch', async () => {
    const { company, user, token } = await signIn();
    const { pull } = await open(token);
    const answered = thread?.stats.answered;
    const first = await pull(req(`g-${user.id}`));
    expect(first.ok).toBe(true);
    // Answered where this case says.
    expect(thread?.stats.answered).toBe(answered === undefined ? undefined : answered + 1);
    const keys = (first.body.patch as { key?: string }[]).map((p) => p.key);
    expect(keys).toEqual(expect.arrayContaining([`company/${company.id}`, `user/${user.id}`]));
    const again = await pull(req(`g-${user.id}`, first.body.cookie));
    expect(again.body).toEqual({ cookie: first.body.cookie, lastMutationIDChanges: {}, patch: [] });
    const http = await live.request('POST', '/sync/pull', { token, body: req(`g-${user.id}`, first.body.cookie) });
    expect(http.body).toEqual(again.body);
  });

  it('refuses another user’s client group and another protocol version like the route does', async () => {
    const a = await signIn();
    const b = await signIn();
    const { pull } = await open(a.token);
    expect((await pull(req(`g-${a.user.id}`))).ok).toBe(true);
    const { pull: pullB } = await open(b.token);
    const foreign = await pullB(req(`g-${a.user.id}`));
    expect(foreign).toMatchObject({ ok: false, body: { error: 'ERR_NO_PERMISSION' } });
    expect((await pullB({ ...req(`g-${b.user.id}`), pullVersion: 0 })).body).toEqual({ error: 'VersionNotSupported', versionType: 'pull' });
    expect((await pullB({ clientGroupID: 42, pullVersion: 1 })).body).toMatchObject({ error: 'ERR_VALIDATION' });
  });

  it('ignores messages that are not pulls and keeps answering', async () => {
    const { user, token } = await signIn();
    const { ws, pull } = await open(token);
    ws.send('not json');
    ws.send(JSON.stringify({ type: 'pull' }));
    ws.send(JSON.stringify({ type: 'pull', id: 'x', body: {} }));
    ws.send(JSON.stringify(null));
    expect((await pull(req(`g-${user.id}`))).ok).toBe(true);
  });

  it('stops answering with data once the session is revoked', async () => {
    const { company, user, token } = await signIn();
    const { pull } = await open(token);
    expect((await pull(req(`g-${user.id}`))).ok).toBe(true);
    // Revoked in the database only (no socket event), so the socket stays open to be asked.
    await tenant(live.db, company.id).updateTable('userSessions').set({ revokedAt: new Date().toISOString() }).where('userSessions.userId', '=', user.id).execute();
    const refused = await pull(req(`g-${user.id}`));
    expect(refused).toMatchObject({ ok: false, body: { error: 'ERR_SESSION_EXPIRED' } });
  });

  it('sends with a poke the answer to the pull the client would make next, from the cookie it holds', async () => {
    const { company, user, token } = await signIn();
    const { pull, pokes } = await open(token);
    const first = await pull(req(`g-${user.id}`));
    const tag = await tenant(live.db, company.id).insertInto('tags', { name: 'Before', color: '#111111' }).returning('id').executeTakeFirstOrThrow();
    live.deps.realtime.pokeCompany(company.id);
    const created = await waitFor(() => pokes.find((p) => p.pull?.response.patch.some((op) => op.key === `tag/${tag.id}`)), 10_000, 'the poke with the new tag');
    // The request is the client's last one with the cookie it was answered; the answer starts there.
    expect(created.pull!.request).toEqual(req(`g-${user.id}`, first.body.cookie));
    expect(created.pull!.response.patch).toEqual([{ op: 'put', key: `tag/${tag.id}`, value: expect.objectContaining({ name: 'Before' }) }]);

    // The next poke's answer starts from the cookie of the answer the poke brought.
    await tenant(live.db, company.id).updateTable('tags').set({ name: 'After', version: sql`version + 1` }).where('id', '=', tag.id).execute();
    live.deps.realtime.pokeCompany(company.id);
    const renamed = await waitFor(() => pokes.find((p) => p.pull?.response.patch.some((op) => op.value?.name === 'After')), 10_000, 'the poke with the rename');
    expect(renamed.pull!.request.cookie).toEqual(created.pull!.response.cookie);
    // The same request over HTTP gives the same patch: the poke's answer is the pull's answer.
    const http = await live.request('POST', '/sync/pull', { token, body: renamed.pull!.request });
    expect(http.body.patch).toEqual(renamed.pull!.response.patch);
  });

  it('pokes without an answer when the client never pulled on the socket or its session ended', async () => {
    const { company, user, token } = await signIn();
    const { pull, pokes } = await open(token);
    live.deps.realtime.pokeCompany(company.id);
    await waitFor(() => pokes.length >= 1, 10_000, 'the first poke');
    expect(pokes.every((p) => p.pull === undefined)).toBe(true);

    expect((await pull(req(`g-${user.id}`))).ok).toBe(true);
    await tenant(live.db, company.id).updateTable('userSessions').set({ revokedAt: new Date().toISOString() }).where('userSessions.userId', '=', user.id).execute();
    const before = pokes.length;
    live.deps.realtime.pokeCompany(company.id);
    await waitFor(() => pokes.length > before && pokes.at(-1)!.pull === undefined, 10_000, 'a bare poke after the revocation');
  });

  it('never brings one company’s rows to another company’s socket', async () => {
    const a = await signIn();
    const b = await signIn();
    const sa = await open(a.token);
    const sb = await open(b.token);
    await sa.pull(req(`g-${a.user.id}`));
    await sb.pull(req(`g-${b.user.id}`));
    const tag = await tenant(live.db, a.company.id).insertInto('tags', { name: 'Secret of A', color: '#222222' }).returning('id').executeTakeFirstOrThrow();
    live.deps.realtime.pokeCompany(a.company.id);
    live.deps.realtime.pokeCompany(b.company.id);
    await waitFor(() => sa.pokes.some((p) => p.pull?.response.patch.some((op) => op.key === `tag/${tag.id}`)), 10_000, 'A’s poke with its tag');
    await waitFor(() => sb.pokes.some((p) => p.pull), 10_000, 'B’s poke with an answer');
    expect(JSON.stringify(sb.pokes)).not.toContain('Secret of A');
  });
});
