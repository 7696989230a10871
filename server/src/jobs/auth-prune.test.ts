// Pruning sign-in bookkeeping on both dialects: refresh tokens a day past their expiry go, and the
// sessions left with none once their lifetimes are over; live sessions (any company's) keep their
// tokens and keep refreshing, a spent token within its life still revokes its session, an access
// token naming a pruned session is refused as a revoked one is, and slices let other writes through.
// "Old" rows are made by moving their times back, as if the app had signed them in long ago.
import { CompiledQuery, sql, type Compilable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, refreshCookie, type TestApp } from '../../test/harness.ts';
import { foreignKeys } from '../../test/schema-facts.ts';
import { loginAs, seedTenant } from '../../test/seed.ts';
import { sliceBesideAnotherWrite } from '../../test/slices.ts';
import { deadSessions, expiredRefreshTokens, pruneAuthRows, pruneCutoffs, pruneRefreshTokensSlice, pruneSessionsSlice } from './auth-prune.ts';

const DAY = 86_400_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

describe.each(DIALECTS)('auth rows pruning on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const liveSessionOf = async (userId: number) =>
    (await t.db.selectFrom('userSessions').select('id').where('userId', '=', userId).where('revokedAt', 'is', null).executeTakeFirstOrThrow()).id;
  const sessionExists = async (id: string) => (await t.db.selectFrom('userSessions').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  const tokensOf = async (sessionId: string) => (await t.db.selectFrom('refreshTokens').select('id').where('sessionId', '=', sessionId).execute()).length;

  /** Makes a session look signed in and refreshed long ago: its tokens expired `expiredFor` ago. */
  async function age(sessionId: string, expiredFor: number) {
    await t.db.updateTable('refreshTokens').set({ expiresAt: ago(expiredFor) }).where('sessionId', '=', sessionId).execute();
    const issued = ago(expiredFor + t.deps.config.refreshTokenTtlSec * 1000);
    await t.db.updateTable('userSessions').set({ lastUsedAt: issued }).where('id', '=', sessionId).execute();
  }

  async function refresh(cookie: string) {
    const res = await t.request('POST', '/auth/refresh_token', { cookie });
    return { status: res.status, error: res.body?.error as string | undefined, token: res.body?.token as string | undefined, cookie: refreshCookie(res.headers) };
  }

  /** What an access token gets from REST and from the sync push (the same bearer rules). */
  async function answersTo(token: string) {
    const me = await t.request('GET', '/auth/me', { token });
    const push = await t.request('POST', '/sync/push', { token, body: {} });
    return [me.status, me.body?.error, push.status, push.body?.error];
  }

  it('deletes expired tokens and dead sessions of every company; live ones stay and keep refreshing', async () => {
    const a = await seedTenant(t);
    const b = await seedTenant(t);
    // A: the attendant signed in on another computer (the first session revoked, its access token
    // still within its life), and refreshed the new one twice (two spent tokens within their life).
    const replacedSid = await liveSessionOf(a.user.id);
    const replaced = a.userSession;
    const second = await loginAs(t, a.user);
    const liveSid = await liveSessionOf(a.user.id);
    const r1 = await refresh(second.cookie);
    const r2 = await refresh(r1.cookie!);
    expect(r2.status).toBe(200);
    // B: the attendant's session was never revoked, but nobody used it for weeks.
    const idleSid = await liveSessionOf(b.user.id);
    // A's admin has a token that expired an hour ago: within the day of grace.
    const graceSid = await liveSessionOf(a.admin.id);
    await t.db.updateTable('refreshTokens').set({ expiresAt: ago(3600_000) }).where('sessionId', '=', graceSid).execute();

    await age(replacedSid, 2 * DAY);
    await age(idleSid, 2 * DAY);
    const revokedAnswer = await answersTo(replaced.token);
    expect(revokedAnswer).toEqual([401, 'ERR_SESSION_EXPIRED', 401, 'ERR_SESSION_EXPIRED']);
    expect((await t.request('GET', '/auth/me', { token: b.userSession.token })).status).toBe(200);

    const result = await pruneAuthRows(t.deps);
    expect(result.refreshTokens).toBeGreaterThanOrEqual(2);
    expect(result.sessions).toBeGreaterThanOrEqual(2);

    // Gone: the replaced session and the idle one, with their tokens.
    for (const sid of [replacedSid, idleSid]) {
      expect(await sessionExists(sid), sid).toBe(false);
      expect(await tokensOf(sid)).toBe(0);
    }
    // An access token naming a pruned session gets what a revoked session's gets, REST and sync alike.
    expect(await answersTo(replaced.token)).toEqual(revokedAnswer);
    expect(await answersTo(b.userSession.token)).toEqual(revokedAnswer);
    expect((await refresh(b.userSession.cookie)).error).toBe('ERR_SESSION_EXPIRED');

    // Kept: the live session with its three tokens (two spent), and the token within its grace day.
    expect(await tokensOf(liveSid)).toBe(3);
    expect(await tokensOf(graceSid)).toBe(1);
    expect(await refresh(a.adminSession.cookie)).toMatchObject({ status: 401, error: 'ERR_SESSION_EXPIRED' });
    // The live sessions work: A's attendant refreshes and B's admin (the other company) too.
    const r3 = await refresh(r2.cookie!);
    expect(r3.status).toBe(200);
    expect((await t.request('GET', '/auth/me', { token: r3.token })).status).toBe(200);
    const bAdmin = await refresh(b.adminSession.cookie);
    expect(bAdmin.status).toBe(200);
    expect((await t.request('GET', '/auth/me', { token: bAdmin.token })).status).toBe(200);

    // A second pass finds nothing of theirs to do, and the live sessions still stand.
    await pruneAuthRows(t.deps);
    expect(await sessionExists(liveSid)).toBe(true);
    expect(await tokensOf(liveSid)).toBe(4);
  });

  it('still catches a spent token presented again within its life after a pass, and revokes its session', async () => {
    const { user, userSession } = await seedTenant(t);
    const first = await refresh(userSession.cookie);
    expect(first.status).toBe(200);
    await pruneAuthRows(t.deps);

    const reuse = await refresh(userSession.cookie);
    expect(reuse).toMatchObject({ status: 401, error: 'ERR_SESSION_EXPIRED' });
    const revoked = await t.db.selectFrom('userSessions').select('revokedReason').where('userId', '=', user.id).executeTakeFirstOrThrow();
    expect(revoked.revokedReason).toBe('refresh-reuse');
    expect((await refresh(first.cookie!)).status).toBe(401);
    expect((await t.request('GET', '/auth/me', { token: first.token })).status).toBe(401);
  });

  it('waits for the longer of the two token lifetimes (and the day of grace) before a session goes', async () => {
    // With a refresh token life shorter than the access token's, an access token of the session
    // could outlive its refresh tokens: the session waits for it.
    const { tokensExpiredBefore, sessionsUsedBefore } = pruneCutoffs({ ...t.deps.config, refreshTokenTtlSec: 60, accessTokenTtlSec: 3600 }, new Date('2026-12-01T00:00:00.000Z'));
    expect(tokensExpiredBefore).toBe('2026-11-30T00:00:00.000Z');
    expect(sessionsUsedBefore).toBe('2026-11-29T23:00:00.000Z');
  });

  it('deletes in slices that let another company write in between', async () => {
    const { user } = await seedTenant(t);
    const other = await seedTenant(t);
    // Five sessions of the user (four of them replaced), each refreshed once: ten tokens.
    const sids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const s = await loginAs(t, user);
      expect((await refresh(s.cookie)).status).toBe(200);
      sids.push(await liveSessionOf(user.id));
    }
    for (const sid of sids) await age(sid, 2 * DAY);
    const otherSid = await liveSessionOf(other.user.id);
    const { tokensExpiredBefore, sessionsUsedBefore } = pruneCutoffs(t.deps.config, new Date());
    const tokensLeft = async () => (await t.db.selectFrom('refreshTokens').select('id').where('sessionId', 'in', sids).execute()).length;
    const sessionsLeft = async () => (await t.db.selectFrom('userSessions').select('id').where('id', 'in', sids).execute()).length;
    expect(await tokensLeft()).toBe(10);

    await sliceBesideAnotherWrite(t, other.company.id, (tx, limit) => pruneRefreshTokensSlice(tx, tokensExpiredBefore, limit), async () => (await tokensLeft()) > 0);
    expect(await tokensLeft()).toBe(0);
    await sliceBesideAnotherWrite(t, other.company.id, (tx, limit) => pruneSessionsSlice(tx, sessionsUsedBefore, limit), async () => (await sessionsLeft()) > 0);
    expect(await sessionsLeft()).toBe(0);
    // The other company's live session was not touched.
    expect(await tokensOf(otherSid)).toBe(1);
    expect((await refresh(other.userSession.cookie)).status).toBe(200);
  });

  it('nothing but refresh tokens references a session, and the look-ups search their indexes', async () => {
    // A new reference to user_sessions must be weighed by the prune before its sessions can go.
    const refs = (await foreignKeys(t)).filter((k) => k.references === 'user_sessions').map((k) => `${k.table}.${k.columns.join('+')}`);
    expect(refs).toEqual(['refresh_tokens.session_id']);
    if (dialect === 'postgres') {
      // An empty table is scanned whatever its indexes: here the indexes themselves are checked.
      const defs = (await sql<{ def: string }>`SELECT indexdef AS def FROM pg_indexes WHERE tablename IN ('refresh_tokens', 'user_sessions')`.execute(t.db)).rows.map((r) => r.def);
      expect(defs).toEqual(expect.arrayContaining([expect.stringMatching(/refresh_tokens_expires ON .*refresh_tokens .*\(expires_at\)$/), expect.stringMatching(/user_sessions_last_used ON .*user_sessions .*\(last_used_at\)$/)]));
      return;
    }
    const at = new Date().toISOString();
    const plan = async (q: Compilable) => {
      const { sql: text, parameters } = q.compile();
      return (await t.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${text}`, [...parameters]))).rows.map((r) => r.detail).join('\n');
    };
    expect(await plan(expiredRefreshTokens(t.db, at).limit(2))).toMatch(/SEARCH refresh_tokens USING (COVERING )?INDEX refresh_tokens_expires/);
    const sessions = await plan(deadSessions(t.db, at).limit(2));
    expect(sessions).toMatch(/SEARCH user_sessions USING INDEX user_sessions_last_used/);
    expect(sessions).toMatch(/SEARCH refresh_tokens USING (COVERING )?INDEX refresh_tokens_session/);
  });
});
