// Pulls over the poke socket (ws.ts): the same answers as POST /sync/pull, through the same checks,
// and bad messages never break the socket.
import { tenant } from '../db/tenant.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DIALECTS } from '../../test/harness.ts';
import { startLiveApp, type LiveApp } from '../../test/live.ts';
import { seedCompany, seedUser } from '../../test/seed.ts';

type Answer = { type: 'pull'; id: number; ok: boolean; body: Record<string, unknown> };

describe.each(DIALECTS)('pulls over the sync socket (%s)', (dialect) => {
  let live: LiveApp;
  const sockets: WebSocket[] = [];
  beforeAll(async () => {
    live = await startLiveApp(dialect);
  });
  afterAll(async () => {
    for (const s of sockets) s.terminate();
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
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as { type: string };
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
    return { ws, pull };
  }

  const req = (clientGroupID: string, cookie: unknown = null) => ({ pullVersion: 1, clientGroupID, cookie, profileID: 'p', schemaVersion: '' });

  it('answers a pull as POST /sync/pull does: the full view first, then the same cookie and no patch', async () => {
    const { company, user, token } = await signIn();
    const { pull } = await open(token);
    const first = await pull(req(`g-${user.id}`));
    expect(first.ok).toBe(true);
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
});
