// Pruning sign-in bookkeeping: every refresh adds a refresh token (the spent one is kept, so a copy
// presented again is caught and its session revoked: modules/auth/service.ts) and every sign-in a
// session (the user's older ones revoked). Without this job both tables grow forever.
//
// - A refresh token goes a day after its expiry (EXPIRED_GRACE_MS). Until then it answers as it
//   always did: expired, or a spent one presented again revokes its session. After that it is
//   unknown, which the refresh endpoint refuses with the same ERR_SESSION_EXPIRED.
// - A session goes once it has no refresh token left and its newest token was issued (last_used_at)
//   longer ago than the token and access-token lifetimes plus that day: revoked or not, nothing can
//   use it any more. An access token still naming it is refused with ERR_SESSION_EXPIRED as for a
//   revoked session (auth/middleware.ts, sync/routes.ts and realtime/ws.ts find no live row).
//   Refresh tokens are the only rows that reference a session.
//
// The look-ups cross companies (one job serves every tenant; indexes refresh_tokens_expires and
// user_sessions_last_used); each slice deletes its rows company by company through tenant(), with
// the condition checked again on the row, a slice per write (db/slices.ts).
import type { ExpressionBuilder } from 'kysely';
import type { AppDeps } from '../context.ts';
import { inSlices, SLICE_ROWS } from '../db/slices.ts';
import { tenant } from '../db/tenant.ts';
import type { Database } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import type { Tx } from '../db/write.ts';
import { startCronJob, type RunningJob } from './runner.ts';

/** Every hour, at minute 43 (away from the other jobs' round minutes and the webhook prune's 17). */
export const AUTH_PRUNE_CRON = '43 * * * *';
/** How long an expired refresh token is kept: a client back a little late still hears "expired". */
export const EXPIRED_GRACE_MS = 24 * 3600 * 1000;

export type AuthPruneResult = { refreshTokens: number; sessions: number };

/** The times before which rows may go, at `now` (the lifetimes from the config). */
export function pruneCutoffs(config: AppDeps['config'], now: Date): { tokensExpiredBefore: string; sessionsUsedBefore: string } {
  const life = Math.max(config.refreshTokenTtlSec, config.accessTokenTtlSec) * 1000;
  return {
    tokensExpiredBefore: new Date(now.getTime() - EXPIRED_GRACE_MS).toISOString(),
    sessionsUsedBefore: new Date(now.getTime() - EXPIRED_GRACE_MS - life).toISOString(),
  };
}

/** Refresh tokens that expired before `before`, every company's (index refresh_tokens_expires). */
export const expiredRefreshTokens = (db: Database, before: string) =>
  db.selectFrom('refreshTokens').select(['refreshTokens.companyId', 'refreshTokens.id']).where('refreshTokens.expiresAt', '<', before);

const noTokenLeft = ({ not, exists, selectFrom }: ExpressionBuilder<DB, 'userSessions'>) =>
  not(exists(selectFrom('refreshTokens').select('refreshTokens.id').whereRef('refreshTokens.sessionId', '=', 'userSessions.id')));

/** Sessions last used before `usedBefore` with no refresh token left, every company's (index user_sessions_last_used). */
export const deadSessions = (db: Database, usedBefore: string) =>
  db
    .selectFrom('userSessions')
    .select(['userSessions.companyId', 'userSessions.id'])
    .where('userSessions.lastUsedAt', '<', usedBefore)
    .where(noTokenLeft);

function byCompany<Id>(rows: { companyId: number; id: Id }[]): Map<number, Id[]> {
  const out = new Map<number, Id[]>();
  for (const r of rows) {
    const ids = out.get(r.companyId);
    if (ids) ids.push(r.id);
    else out.set(r.companyId, [r.id]);
  }
  return out;
}

/** One slice: up to `limit` refresh tokens expired before `before` deleted; answers how many. */
export async function pruneRefreshTokensSlice(tx: Tx, before: string, limit: number): Promise<number> {
  let deleted = 0;
  for (const [companyId, ids] of byCompany(await expiredRefreshTokens(tx.db, before).limit(limit).execute())) {
    const res = await tenant(tx.db, companyId).deleteFrom('refreshTokens').where('refreshTokens.id', 'in', ids).where('refreshTokens.expiresAt', '<', before).executeTakeFirst();
    deleted += Number(res.numDeletedRows);
  }
  return deleted;
}

/** One slice: up to `limit` sessions last used before `usedBefore` with no refresh token left deleted; answers how many. */
export async function pruneSessionsSlice(tx: Tx, usedBefore: string, limit: number): Promise<number> {
  let deleted = 0;
  for (const [companyId, ids] of byCompany(await deadSessions(tx.db, usedBefore).limit(limit).execute())) {
    const res = await tenant(tx.db, companyId)
      .deleteFrom('userSessions')
      .where('userSessions.id', 'in', ids)
      .where('userSessions.lastUsedAt', '<', usedBefore)
      .where(noTokenLeft)
      .executeTakeFirst();
    deleted += Number(res.numDeletedRows);
  }
  return deleted;
}

/** One pass at `now` (tests pass a fake clock): the tokens first, so their sessions can go in the same pass. */
export async function pruneAuthRows(deps: AppDeps, now: Date = new Date(), limit = SLICE_ROWS): Promise<AuthPruneResult> {
  const { tokensExpiredBefore, sessionsUsedBefore } = pruneCutoffs(deps.config, now);
  const result: AuthPruneResult = { refreshTokens: 0, sessions: 0 };
  // Read first: a pass with nothing to prune writes nothing.
  if (await expiredRefreshTokens(deps.db, tokensExpiredBefore).limit(1).executeTakeFirst()) {
    await inSlices(deps, async (tx, n) => count(result, 'refreshTokens', await pruneRefreshTokensSlice(tx, tokensExpiredBefore, n)), limit);
  }
  if (await deadSessions(deps.db, sessionsUsedBefore).limit(1).executeTakeFirst()) {
    await inSlices(deps, async (tx, n) => count(result, 'sessions', await pruneSessionsSlice(tx, sessionsUsedBefore, n)), limit);
  }
  return result;
}

function count(result: AuthPruneResult, key: keyof AuthPruneResult, n: number): number {
  result[key] += n;
  return n;
}

export function startAuthPruneJob(deps: AppDeps): RunningJob {
  return startCronJob({
    name: 'auth-prune',
    cron: AUTH_PRUNE_CRON,
    log: deps.log,
    run: async () => {
      const result = await pruneAuthRows(deps);
      if (result.refreshTokens + result.sessions > 0) deps.log.info('auth rows pruned', result);
    },
  });
}
