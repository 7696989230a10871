import { AppError, SUBSCRIPTION_WARNING_DAYS, type LoginInput } from '@zapdesk/sync';
import type { AppDeps } from '../../context.ts';
import { nowIso } from '../../db/database.ts';
import { tenant } from '../../db/tenant.ts';
import { write } from '../../db/write.ts';
import { hashPassword, verifyPassword } from '../../auth/password.ts';
import { hashToken, newRefreshToken, newResetCode, newSessionId, signAccessToken } from '../../auth/tokens.ts';
import { markUsersOffline } from '../../realtime/presence.ts';
import { findCompanyRef, findUser, type CompanyRef, type UserDto } from '../users/dto.ts';

export type SessionResult = {
  token: string;
  refreshToken: string;
  user: UserDto & { company: CompanyRef };
  /** Days until the company's due date, so clients warn when fewer than 5 remain (spec/01 §4). */
  subscription: { dueDate: string | null; daysLeft: number | null; expiresSoon: boolean };
};

const DAY_MS = 24 * 3600 * 1000;

export function daysUntil(dueDate: string | null, now = Date.now()): number | null {
  return dueDate ? Math.ceil((Date.parse(dueDate) - now) / DAY_MS) : null;
}

/** Login with email and password. Opens a new session and revokes every other one of the account. */
export async function login(deps: AppDeps, input: LoginInput, meta: { ip: string; userAgent?: string }): Promise<SessionResult> {
  deps.limiter.hit({ ip: meta.ip, account: input.email });
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
  deps.limiter.reset(input.email);
  const replaced: string[] = [];
  const session = await deps.db.transaction().execute(async (trx) => {
    const t = nowIso();
    const revoked = await tenant(trx, row.companyId)
      .updateTable('userSessions')
      .set({ revokedAt: t, revokedReason: 'replaced', updatedAt: t })
      .where('userId', '=', row.id)
      .where('revokedAt', 'is', null)
      .returning('userSessions.id')
      .execute();
    replaced.push(...revoked.map((r) => r.id));
    const sessionId = newSessionId();
    await tenant(trx, row.companyId)
      .insertInto('userSessions', { id: sessionId, userId: row.id, ip: meta.ip, userAgent: meta.userAgent?.slice(0, 300) ?? null, lastUsedAt: t })
      .execute();
    return issueTokens({ ...deps, db: trx }, row.companyId, row.id, sessionId);
  });
  // After the commit: the replaced sessions' open sockets hear "accessed on another computer".
  deps.realtime.sessionRevoked(replaced, 'replaced');
  return session;
}

async function issueTokens(deps: AppDeps, companyId: number, userId: number, sessionId: string): Promise<SessionResult> {
  const { token: refreshToken, hash } = newRefreshToken();
  const expiresAt = new Date(Date.now() + deps.config.refreshTokenTtlSec * 1000).toISOString();
  await tenant(deps.db, companyId).insertInto('refreshTokens', { sessionId, userId, tokenHash: hash, expiresAt }).execute();
  const token = await signAccessToken({ sub: userId, cid: companyId, sid: sessionId }, deps.config.jwtSecret, deps.config.accessTokenTtlSec);
  const user = await findUser(deps.db, companyId, userId);
  const company = await findCompanyRef(deps.db, companyId);
  if (!user || !company) throw new AppError('ERR_SESSION_EXPIRED');
  const daysLeft = daysUntil(company.dueDate);
  return {
    token,
    refreshToken,
    user: { ...user, company },
    subscription: { dueDate: company.dueDate, daysLeft, expiresSoon: daysLeft !== null && daysLeft < SUBSCRIPTION_WARNING_DAYS },
  };
}

/**
 * Rotates a refresh token: the presented one is spent and a new one issued. Presenting a spent
 * token again means it was copied, so the whole session is revoked.
 */
export async function refresh(deps: AppDeps, presented: string | undefined): Promise<SessionResult> {
  if (!presented) throw new AppError('ERR_SESSION_EXPIRED');
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('refreshTokens')
      .innerJoin('userSessions', 'userSessions.id', 'refreshTokens.sessionId')
      .select(['refreshTokens.id', 'refreshTokens.companyId', 'refreshTokens.userId', 'refreshTokens.sessionId', 'refreshTokens.usedAt', 'refreshTokens.expiresAt', 'userSessions.revokedAt'])
      .where('refreshTokens.tokenHash', '=', hashToken(presented))
      .executeTakeFirst();
    if (!row || row.revokedAt) throw new AppError('ERR_SESSION_EXPIRED');
    const t = nowIso();
    const db = tenant(trx, row.companyId);
    if (row.usedAt) {
      await db.updateTable('userSessions').set({ revokedAt: t, revokedReason: 'refresh-reuse', updatedAt: t }).where('id', '=', row.sessionId).execute();
      return { reused: row.sessionId }; // committed, then refused below
    }
    if (Date.parse(row.expiresAt) <= Date.now()) throw new AppError('ERR_SESSION_EXPIRED');
    // Spend it conditionally, so two concurrent refreshes with one token cannot both win.
    const spent = await db.updateTable('refreshTokens').set({ usedAt: t, updatedAt: t }).where('id', '=', row.id).where('usedAt', 'is', null).executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) throw new AppError('ERR_SESSION_EXPIRED');
    await db.updateTable('userSessions').set({ lastUsedAt: t, updatedAt: t }).where('id', '=', row.sessionId).execute();
    return issueTokens({ ...deps, db: trx }, row.companyId, row.userId, row.sessionId);
  });
  if ('reused' in outcome) {
    deps.realtime.sessionRevoked(outcome.reused, 'refresh-reuse');
    throw new AppError('ERR_SESSION_EXPIRED');
  }
  return outcome;
}

/** Ends the session named by the refresh token or the access token's session id. */
export async function logout(deps: AppDeps, refreshToken: string | undefined, sessionId: string | undefined): Promise<void> {
  let sid = sessionId;
  if (!sid && refreshToken) {
    const row = await deps.db.selectFrom('refreshTokens').select('sessionId').where('tokenHash', '=', hashToken(refreshToken)).executeTakeFirst();
    sid = row?.sessionId;
  }
  if (!sid) return;
  const t = nowIso();
  const ended = await deps.db
    .updateTable('userSessions')
    .set({ revokedAt: t, revokedReason: 'logout', updatedAt: t })
    .where('id', '=', sid)
    .where('revokedAt', 'is', null)
    .returning(['userSessions.companyId', 'userSessions.userId'])
    .executeTakeFirst();
  // Other tabs of this session hear it and leave too.
  deps.realtime.sessionRevoked(sid, 'logout');
  // A login revokes the user's other sessions, so this was their only one: offline now, not after
  // the sockets' grace period (realtime/README.md, presence).
  if (ended) await write(deps, (tx) => markUsersOffline(tx, ended.companyId, [ended.userId]));
}

/** Step one of the reset: a code goes out by mail (or to the log when no SMTP is set). */
export async function requestPasswordReset(deps: AppDeps, email: string, ip: string): Promise<void> {
  deps.limiter.hit({ ip, account: `reset:${email}` });
  const user = await deps.db.selectFrom('users').select(['id', 'companyId', 'name']).where('email', '=', email).executeTakeFirst();
  if (!user) throw new AppError('ERR_USER_DONT_EXISTS');
  const code = newResetCode();
  const expiresAt = new Date(Date.now() + deps.config.resetCodeTtlSec * 1000).toISOString();
  const t = nowIso();
  await deps.db.transaction().execute(async (trx) => {
    const db = tenant(trx, user.companyId);
    // Only the newest code is valid.
    await db.updateTable('passwordResets').set({ usedAt: t, updatedAt: t }).where('userId', '=', user.id).where('usedAt', 'is', null).execute();
    await db.insertInto('passwordResets', { userId: user.id, codeHash: hashToken(`${user.id}:${code}`), expiresAt }).execute();
  });
  const minutes = Math.round(deps.config.resetCodeTtlSec / 60);
  await deps.mailer.send({
    to: email,
    subject: 'zapdesk password reset code',
    text: `Hello ${user.name},\n\nYour password reset code is ${code}. It expires in ${minutes} minutes.\n\nIf you did not ask for it, ignore this message.`,
  });
}

const MAX_RESET_ATTEMPTS = 5;

/** Step two: the code sets a new password and ends every session of the account. */
export async function resetPassword(deps: AppDeps, input: { email: string; token: string; newPassword: string }, ip: string): Promise<void> {
  deps.limiter.hit({ ip, account: `reset:${input.email}` });
  const user = await deps.db.selectFrom('users').select(['id', 'companyId']).where('email', '=', input.email).executeTakeFirst();
  if (!user) throw new AppError('ERR_USER_DONT_EXISTS');
  const passwordHash = await hashPassword(input.newPassword);
  await deps.db.transaction().execute(async (trx) => {
    const db = tenant(trx, user.companyId);
    const reset = await db
      .selectFrom('passwordResets')
      .select(['id', 'codeHash', 'attempts', 'expiresAt'])
      .where('userId', '=', user.id)
      .where('usedAt', 'is', null)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    const t = nowIso();
    if (!reset || Date.parse(reset.expiresAt) <= Date.now() || reset.attempts >= MAX_RESET_ATTEMPTS) {
      throw new AppError('ERR_INVALID_RESET_CODE');
    }
    if (reset.codeHash !== hashToken(`${user.id}:${input.token}`)) {
      await db.updateTable('passwordResets').set({ attempts: reset.attempts + 1, updatedAt: t }).where('id', '=', reset.id).execute();
      return 'wrong-code';
    }
    await db.updateTable('passwordResets').set({ usedAt: t, updatedAt: t }).where('id', '=', reset.id).execute();
    await db.updateTable('users').set({ passwordHash, updatedAt: t }).where('id', '=', user.id).execute();
    const revoked = await db
      .updateTable('userSessions')
      .set({ revokedAt: t, revokedReason: 'password-reset', updatedAt: t })
      .where('userId', '=', user.id)
      .where('revokedAt', 'is', null)
      .returning('userSessions.id')
      .execute();
    return revoked.map((r) => r.id);
  }).then((outcome) => {
    // The failed attempt is counted (committed) before the refusal is reported.
    if (outcome === 'wrong-code') throw new AppError('ERR_INVALID_RESET_CODE');
    deps.realtime.sessionRevoked(outcome, 'password-reset');
  });
}

function formatDate(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
}
