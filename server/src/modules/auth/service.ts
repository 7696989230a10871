// Sessions (spec/01 §4): login, refresh-token rotation and logout. Checks that need no write (the
// rate limiter, the slow password hash) run before the route's write; the writes take its `tx`, and
// the `auth` event that ends other sockets of a revoked session is sent only after the commit.
import { AppError, SUBSCRIPTION_WARNING_DAYS, type LoginInput, type SessionAnswer } from '@zapdesk/sync';
import type { AppDeps } from '../../context.ts';
import { nowIso } from '../../db/database.ts';
import { tenant } from '../../db/tenant.ts';
import type { Reader, Tx } from '../../db/write.ts';
import { verifyPassword } from '../../auth/password.ts';
import { hashToken, newRefreshToken, newSessionId, signAccessToken } from '../../auth/tokens.ts';
import { findSessionUser } from '../users/dto.ts';

/** The session answer (sync/src/domain/auth.ts) and the refresh token, which the route puts in a cookie. */
export type SessionResult = SessionAnswer & { refreshToken: string };

const DAY_MS = 24 * 3600 * 1000;

export function daysUntil(dueDate: string | null, now = Date.now()): number | null {
  return dueDate ? Math.ceil((Date.parse(dueDate) - now) / DAY_MS) : null;
}

export type LoginAccount = { userId: number; companyId: number };

/**
 * Step one of a login, before any write: the attempt is counted, the password checked (slow, so
 * outside the transaction) and the company's standing verified.
 */
export async function checkCredentials(deps: AppDeps, input: LoginInput, ip: string): Promise<LoginAccount> {
  await deps.limiter.hit({ ip, account: input.email });
  const row = await deps.db
    .selectFrom('users')
    .innerJoin('companies', 'companies.id', 'users.companyId')
    .select(['users.id', 'users.companyId', 'users.passwordHash', 'users.super', 'companies.dueDate', 'companies.status'])
    .where('users.email', '=', input.email)
    .executeTakeFirst();
  const ok = await verifyPassword(row?.passwordHash, input.password);
  if (!row || !ok) throw new AppError('ERR_INVALID_CREDENTIALS');
  if (row.super !== 1) {
    if (row.status !== 1) throw new AppError('ERR_COMPANY_INACTIVE');
    if (!row.dueDate || Date.parse(row.dueDate) <= Date.now()) {
      const on = row.dueDate ? formatDate(row.dueDate) : 'an unknown date';
      throw new AppError('ERR_SUBSCRIPTION_EXPIRED', `Your subscription expired on ${on}. Please contact support.`, {
        details: { dueDate: row.dueDate },
      });
    }
  }
  await deps.limiter.succeeded({ ip, account: input.email });
  return { userId: row.id, companyId: row.companyId };
}

/** Step two: a new session for the account; every other one of it is revoked (one computer at a time). */
export async function openSession(tx: Tx, account: LoginAccount, meta: { ip: string; userAgent?: string }): Promise<SessionResult> {
  const db = tenant(tx.db, account.companyId);
  const t = nowIso();
  const revoked = await db
    .updateTable('userSessions')
    .set({ revokedAt: t, revokedReason: 'replaced', updatedAt: t })
    .where('userId', '=', account.userId)
    .where('revokedAt', 'is', null)
    .returning('userSessions.id')
    .execute();
  const replaced = revoked.map((r) => r.id);
  // The replaced sessions' open sockets hear "accessed on another computer" once this login holds.
  if (replaced.length) tx.effects.afterCommit(({ realtime }) => realtime.sessionRevoked(replaced, 'replaced'));
  const sessionId = newSessionId();
  await db
    .insertInto('userSessions', { id: sessionId, userId: account.userId, ip: meta.ip, userAgent: meta.userAgent?.slice(0, 300) ?? null, lastUsedAt: t })
    .execute();
  return issueTokens(tx, account.companyId, account.userId, sessionId);
}

async function issueTokens(tx: Reader, companyId: number, userId: number, sessionId: string): Promise<SessionResult> {
  const { token: refreshToken, hash } = newRefreshToken();
  const expiresAt = new Date(Date.now() + tx.config.refreshTokenTtlSec * 1000).toISOString();
  await tenant(tx.db, companyId).insertInto('refreshTokens', { sessionId, userId, tokenHash: hash, expiresAt }).execute();
  const token = await signAccessToken({ sub: userId, cid: companyId, sid: sessionId }, tx.config.jwtSecret, tx.config.accessTokenTtlSec);
  const user = await findSessionUser(tx.db, companyId, userId);
  if (!user) throw new AppError('ERR_SESSION_EXPIRED');
  // Days until the company's due date, so clients warn when fewer than 5 remain (spec/01 §4).
  const daysLeft = daysUntil(user.company.dueDate);
  return {
    token,
    refreshToken,
    user,
    subscription: { dueDate: user.company.dueDate, daysLeft, expiresSoon: daysLeft !== null && daysLeft < SUBSCRIPTION_WARNING_DAYS },
  };
}

/**
 * Rotates a refresh token: the presented one is spent and a new one issued. Presenting a spent
 * token again means it was copied, so the whole session is revoked: that revocation must commit,
 * so it answers undefined rather than throwing, and the caller refuses the request after the write.
 */
export async function rotateRefreshToken(tx: Tx, presented: string): Promise<SessionResult | undefined> {
  const row = await tx.db
    .selectFrom('refreshTokens')
    .innerJoin('userSessions', 'userSessions.id', 'refreshTokens.sessionId')
    .select(['refreshTokens.id', 'refreshTokens.companyId', 'refreshTokens.userId', 'refreshTokens.sessionId', 'refreshTokens.usedAt', 'refreshTokens.expiresAt', 'userSessions.revokedAt', 'userSessions.revokedReason'])
    .where('refreshTokens.tokenHash', '=', hashToken(presented))
    .executeTakeFirst();
  if (!row) throw new AppError('ERR_SESSION_EXPIRED');
  // An ended session says why, as a request with its access token does (auth/middleware.ts sessionEnded).
  if (row.revokedAt) throw new AppError('ERR_SESSION_EXPIRED', undefined, row.revokedReason ? { details: { reason: row.revokedReason } } : {});
  const t = nowIso();
  const db = tenant(tx.db, row.companyId);
  if (row.usedAt) {
    await db.updateTable('userSessions').set({ revokedAt: t, revokedReason: 'refresh-reuse', updatedAt: t }).where('id', '=', row.sessionId).execute();
    tx.effects.afterCommit(({ realtime }) => realtime.sessionRevoked(row.sessionId, 'refresh-reuse'));
    return undefined;
  }
  if (Date.parse(row.expiresAt) <= Date.now()) throw new AppError('ERR_SESSION_EXPIRED');
  // Spend it conditionally, so two concurrent refreshes with one token cannot both win.
  const spent = await db.updateTable('refreshTokens').set({ usedAt: t, updatedAt: t }).where('id', '=', row.id).where('usedAt', 'is', null).executeTakeFirst();
  if (Number(spent.numUpdatedRows) !== 1) throw new AppError('ERR_SESSION_EXPIRED');
  await db.updateTable('userSessions').set({ lastUsedAt: t, updatedAt: t }).where('id', '=', row.sessionId).execute();
  return issueTokens(tx, row.companyId, row.userId, row.sessionId);
}

/**
 * Ends the session named by the refresh token or the access token's session id, and answers whose
 * it was when this call ended it (undefined when it was already over or none was named).
 */
export async function endSession(tx: Tx, refreshToken: string | undefined, sessionId: string | undefined): Promise<LoginAccount | undefined> {
  let sid = sessionId;
  if (!sid && refreshToken) {
    const row = await tx.db.selectFrom('refreshTokens').select('sessionId').where('tokenHash', '=', hashToken(refreshToken)).executeTakeFirst();
    sid = row?.sessionId;
  }
  if (!sid) return undefined;
  const t = nowIso();
  const ended = await tx.db
    .updateTable('userSessions')
    .set({ revokedAt: t, revokedReason: 'logout', updatedAt: t })
    .where('id', '=', sid)
    .where('revokedAt', 'is', null)
    .returning(['userSessions.companyId', 'userSessions.userId'])
    .executeTakeFirst();
  // Other tabs of this session hear it and leave too.
  const ending = sid;
  tx.effects.afterCommit(({ realtime }) => realtime.sessionRevoked(ending, 'logout'));
  return ended && { companyId: ended.companyId, userId: ended.userId };
}

function formatDate(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
}
