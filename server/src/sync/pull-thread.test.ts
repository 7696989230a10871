// Pulls on their own thread (pull-thread.ts): the thread's answers are the main thread's, over REST
// and the socket; its CVRs are written by the main thread's writer; its refusals arrive as the same
// catalogue errors; and a thread that dies loses no pull and comes back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../../test/harness.ts';
import { startLiveApp, type LiveApp } from '../../test/live.ts';
import { seedCompany, seedUser } from '../../test/seed.ts';
import { tenant } from '../db/tenant.ts';
import { write } from '../db/write.ts';
import { createCvrWriter } from './cvr-writer.ts';
import { startPullThread, type PullThread } from './pull-thread.ts';
import { syncServiceOf } from './service.ts';

type Patch = { op: string; key?: string; value?: unknown }[];

describe.each(DIALECTS)('pulls on their own thread (%s)', (dialect) => {
  let live: LiveApp;
  let thread: PullThread;
  beforeAll(async () => {
    live = await startLiveApp(dialect);
    thread = startPullThread(live.deps, 'always');
    syncServiceOf(live.deps).useThread(thread);
    await thread.whenReady();
  }, 60_000);
  afterAll(async () => {
    await thread.stop();
    await live.close();
  });

  async function signIn(companyId?: number, profile: 'admin' | 'user' = 'admin') {
    const company = companyId ?? (await seedCompany(live)).id;
    const user = await seedUser(live, company, { profile });
    const login = await live.request('POST', '/auth/login', { body: { email: user.email, password: user.password } });
    return { companyId: company, user, token: login.body.token as string };
  }
  const req = (clientGroupID: string, cookie: unknown = null) => ({ pullVersion: 1, clientGroupID, cookie, profileID: 'p', schemaVersion: '' });
  const pull = (token: string, body: unknown) => live.request('POST', '/sync/pull', { token, body });
  const puts = (patch: Patch) => Object.fromEntries(patch.filter((p) => p.op === 'put').map((p) => [p.key!, p.value]));

  it('answers REST pulls as the main thread does, and its CVRs are stored', async () => {
    const { companyId, token, user } = await signIn();
    await live.request('POST', '/tags', { token, body: { name: 'Before', color: '#112233' } });
    const answered = thread.stats.answered;
    const first = await pull(token, req(`thread-${user.id}`));
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/json');
    expect(thread.stats.answered).toBe(answered + 1);
    expect(first.body.patch[0]).toEqual({ op: 'clear' });

    // The same pull on the main thread (another group of the same user) puts the same rows.
    syncServiceOf(live.deps).useThread(undefined);
    const here = await pull(token, req(`main-${user.id}`));
    syncServiceOf(live.deps).useThread(thread);
    expect(thread.stats.answered).toBe(answered + 1);
    expect(puts(first.body.patch)).toEqual(puts(here.body.patch));
    expect(Object.keys(puts(first.body.patch))).toContain(`company/${companyId}`);

    // The CVR the cookie names was written (by the main thread's writer) and serves the next pull.
    const cvrs = await tenant(live.db, companyId).selectFrom('replicacheCvrs').select(['replicacheCvrs.version']).where('replicacheCvrs.clientGroupId', '=', `thread-${user.id}`).execute();
    expect(cvrs.map((c) => c.version)).toContain(first.body.cookie.order);
    const same = await pull(token, req(`thread-${user.id}`, first.body.cookie));
    expect(same.body).toEqual({ cookie: first.body.cookie, lastMutationIDChanges: {}, patch: [] });

    // After a change, the patch holds that change only.
    const tag = await live.request('POST', '/tags', { token, body: { name: 'After', color: '#445566' } });
    const next = await pull(token, req(`thread-${user.id}`, first.body.cookie));
    expect(next.body.patch).toEqual([{ op: 'put', key: `tag/${tag.body.id}`, value: expect.objectContaining({ name: 'After' }) }]);
    expect(next.body.cookie.order).toBeGreaterThan(first.body.cookie.order);
    expect(thread.stats.answered).toBe(answered + 3);
  });

  it('refuses as the main thread does: another user\'s group, an ended session, a bad request', async () => {
    const a = await signIn();
    const b = await signIn(a.companyId, 'user');
    expect((await pull(a.token, req(`owned-${a.user.id}`))).status).toBe(200);
    const foreign = await pull(b.token, req(`owned-${a.user.id}`));
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toBe('ERR_NO_PERMISSION');

    const bad = await pull(a.token, { ...req(`owned-${a.user.id}`), clientGroupID: 42 });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('ERR_VALIDATION');

    expect((await live.request('DELETE', '/auth/logout', { token: a.token })).status).toBeLessThan(300);
    const ended = await pull(a.token, req(`owned-${a.user.id}`));
    expect(ended.status).toBe(401);
    expect(ended.body).toMatchObject({ error: 'ERR_SESSION_EXPIRED', reason: 'logout' });
  });

  it('writes a batch of the thread\'s CVRs at once, a bad row failing alone', async () => {
    const a = await signIn();
    const b = await signIn();
    const writer = createCvrWriter(live.db, dialect);
    await writer.claimGroup({ companyId: a.companyId, userId: a.user.id }, `batch-${a.user.id}`);
    const row = { baseVersion: 0, entries: '{}', watermark: 1, clients: '{}' };
    const outcomes = await writer.saveCvrBatch([
      { ...row, companyId: a.companyId, userId: a.user.id, groupId: `batch-${a.user.id}` },
      // Another company's user naming A's group: refused.
      { ...row, companyId: b.companyId, userId: b.user.id, groupId: `batch-${a.user.id}` },
    ]);
    expect(outcomes[0]).toEqual({ ok: true, version: 1 });
    expect(outcomes[1]).toMatchObject({ ok: false, error: { code: 'ERR_NO_PERMISSION' } });
  });

  it('loses no pull when the thread dies, and is back after it', async () => {
    const { token, user } = await signIn();
    const service = syncServiceOf(live.deps);
    const starts = thread.stats.starts;
    // A pull under way while the thread ends: answered anyway (on the main thread if need be).
    const [answer] = await Promise.all([service.pull(token, req(`dies-${user.id}`)), thread.kill()]);
    expect(JSON.parse(answer.text).patch[0]).toEqual({ op: 'clear' });
    // Meanwhile pulls run here.
    expect(thread.ready).toBe(false);
    expect((await pull(token, req(`dies-${user.id}`))).status).toBe(200);
    await thread.whenReady();
    expect(thread.stats.starts).toBe(starts + 1);
    const answered = thread.stats.answered;
    const back = await pull(token, req(`back-${user.id}`));
    expect(back.status).toBe(200);
    expect(thread.stats.answered).toBe(answered + 1);
  }, 30_000);

  it('in its default mode, takes pulls only while writes keep the main thread busy', async () => {
    const { token, user } = await signIn();
    const busy = startPullThread(live.deps);
    try {
      await busy.whenReady();
      syncServiceOf(live.deps).useThread(busy);
      // A quiet main thread answers itself.
      expect(busy.takesPulls).toBe(false);
      expect((await pull(token, req(`busy-${user.id}`))).status).toBe(200);
      expect(busy.stats.answered).toBe(0);
      // Writes that hold the main thread 10 ms each, one after the other: pulls go over.
      const until = performance.now() + 5_000;
      while (!busy.takesPulls && performance.now() < until) {
        await write(live.deps, async (tx) => {
          await tx.db.selectFrom('companies').select('companies.id').limit(1).execute();
          const t = performance.now();
          while (performance.now() - t < 10);
        });
      }
      expect(busy.takesPulls).toBe(true);
      expect((await pull(token, req(`busy-${user.id}`))).status).toBe(200);
      expect(busy.stats.answered).toBe(1);
      // No more writes: back here.
      const quiet = performance.now() + 5_000;
      while (busy.takesPulls && performance.now() < quiet) await new Promise((r) => setTimeout(r, 50));
      expect(busy.takesPulls).toBe(false);
    } finally {
      syncServiceOf(live.deps).useThread(thread);
      await busy.stop();
    }
  }, 30_000);
});
