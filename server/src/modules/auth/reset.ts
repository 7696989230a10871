// Password reset (spec/01 §4): a code goes out by mail, then the code sets a new password. The rate
// limiter and the account lookup run before the route's write and the mail after it, so a code is
// mailed only once it is stored and no transaction waits on the mail server.
import { AppError } from '@zapdesk/sync';
import type { AppDeps } from '../../context.ts';
import { nowIso } from '../../db/database.ts';
import { tenant } from '../../db/tenant.ts';
import type { Tx } from '../../db/write.ts';
import { hashToken, newResetCode } from '../../auth/tokens.ts';
import { bumpVersion } from '../../sync/version.ts';

export type ResetAccount = { id: number; companyId: number; name: string; email: string };

const MAX_RESET_ATTEMPTS = 5;

/** Counts the attempt (per IP and per account) and finds the account; both steps start here. */
export async function findResetAccount(deps: AppDeps, email: string, ip: string): Promise<ResetAccount> {
  await deps.limiter.hit({ ip, account: `reset:${email}` });
  const user = await deps.db.selectFrom('users').select(['id', 'companyId', 'name']).where('email', '=', email).executeTakeFirst();
  if (!user) throw new AppError('ERR_USER_DONT_EXISTS');
  return { ...user, email };
}

/** Step one: stores a new code, hashed (only the newest is valid), and answers it for the mail. */
export async function issueResetCode(tx: Tx, account: ResetAccount): Promise<string> {
  const code = newResetCode();
  const expiresAt = new Date(Date.now() + tx.config.resetCodeTtlSec * 1000).toISOString();
  const t = nowIso();
  const db = tenant(tx.db, account.companyId);
  await db.updateTable('passwordResets').set({ usedAt: t, updatedAt: t }).where('userId', '=', account.id).where('usedAt', 'is', null).execute();
  await db.insertInto('passwordResets', { userId: account.id, codeHash: hashToken(`${account.id}:${code}`), expiresAt }).execute();
  return code;
}

/** The code by mail (or to the log when no SMTP is set), after the write that stored it. */
export async function mailResetCode(deps: AppDeps, account: ResetAccount, code: string): Promise<void> {
  const minutes = Math.round(deps.config.resetCodeTtlSec / 60);
  await deps.mailer.send({
    to: account.email,
    subject: 'zapdesk password reset code',
    text: `Hello ${account.name},\n\nYour password reset code is ${code}. It expires in ${minutes} minutes.\n\nIf you did not ask for it, ignore this message.`,
  });
}

/**
 * Step two: the code sets the new password (hashed before the write) and ends every session of the
 * account. A wrong code answers false instead of throwing: the counted attempt must commit, and the
 * caller refuses after the write.
 */
export async function applyResetCode(tx: Tx, account: ResetAccount, code: string, passwordHash: string): Promise<boolean> {
  const db = tenant(tx.db, account.companyId);
  const reset = await db
    .selectFrom('passwordResets')
    .select(['id', 'codeHash', 'attempts', 'expiresAt'])
    .where('userId', '=', account.id)
    .where('usedAt', 'is', null)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const t = nowIso();
  if (!reset || Date.parse(reset.expiresAt) <= Date.now() || reset.attempts >= MAX_RESET_ATTEMPTS) {
    throw new AppError('ERR_INVALID_RESET_CODE');
  }
  if (reset.codeHash !== hashToken(`${account.id}:${code}`)) {
    await db.updateTable('passwordResets').set({ attempts: reset.attempts + 1, updatedAt: t }).where('id', '=', reset.id).execute();
    return false;
  }
  await db.updateTable('passwordResets').set({ usedAt: t, updatedAt: t }).where('id', '=', reset.id).execute();
  await db.updateTable('users').set({ passwordHash, ...bumpVersion() }).where('id', '=', account.id).execute();
  const revoked = await db
    .updateTable('userSessions')
    .set({ revokedAt: t, revokedReason: 'password-reset', updatedAt: t })
    .where('userId', '=', account.id)
    .where('revokedAt', 'is', null)
    .returning('userSessions.id')
    .execute();
  const ids = revoked.map((r) => r.id);
  tx.effects.afterCommit(({ realtime }) => realtime.sessionRevoked(ids, 'password-reset'));
  return true;
}
