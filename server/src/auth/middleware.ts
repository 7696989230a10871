import { AppError, can, isCompanyAdmin, type PermissionKey, type Profile } from '@zapdesk/sync';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppDeps, AppEnv } from '../context.ts';
import { prepare } from '../db/prepared.ts';
import { verifyAccessToken } from './tokens.ts';

// Every authenticated request runs it: compiled once (db/prepared.ts).
const findSessionUser = prepare((db, p: { companyId: number; sessionId: string; userId: number }) =>
  db
    .selectFrom('userSessions')
    .innerJoin('users', 'users.id', 'userSessions.userId')
    .select(['users.profile', 'users.super', 'users.companyId'])
    .where('userSessions.id', '=', p.sessionId)
    .where('userSessions.revokedAt', 'is', null)
    .where('users.id', '=', p.userId)
    .where('users.companyId', '=', p.companyId),
);

/**
 * Bearer authentication. An expired token is 403 ERR_TOKEN_EXPIRED (the client refreshes once);
 * a bad token, a revoked session or a deleted user is 401 ERR_SESSION_EXPIRED. A session ended on
 * purpose says why (`reason`: `replaced` by a login elsewhere, `logout`, `password-reset`…), as the
 * socket's `auth` event does: whichever reaches the app first, it tells the user the same.
 * Profile and super flag are read from the database, so a change applies at once.
 */
export function requireAuth(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = bearerToken(c);
    if (!token) throw new AppError('ERR_SESSION_EXPIRED');
    const verified = await verifyAccessToken(token, deps.config.jwtSecret);
    if (!verified.ok) throw new AppError(verified.reason === 'expired' ? 'ERR_TOKEN_EXPIRED' : 'ERR_SESSION_EXPIRED');
    const { sub, cid, sid } = verified.claims;
    if (!Number.isInteger(cid) || cid <= 0) throw new AppError('ERR_SESSION_EXPIRED');
    const [row] = (await findSessionUser(deps.db, { companyId: cid, sessionId: sid, userId: sub })).rows;
    if (!row || row.companyId !== cid) throw await sessionEnded(deps, sid, sub);
    c.set('actor', { userId: sub, companyId: cid, profile: row.profile as Profile, super: row.super === 1, sessionId: sid });
    await next();
  };
}

/** ERR_SESSION_EXPIRED, with the reason its session was revoked when it was (a signed token names a session of its own user). */
export async function sessionEnded(deps: Pick<AppDeps, 'db'>, sessionId: string, userId: number): Promise<AppError> {
  // Only on a refusal, so not a prepared statement.
  const revoked = await deps.db
    .selectFrom('userSessions')
    .select('userSessions.revokedReason')
    .where('userSessions.id', '=', sessionId)
    .where('userSessions.userId', '=', userId)
    .where('userSessions.revokedAt', 'is not', null)
    .executeTakeFirst();
  return new AppError('ERR_SESSION_EXPIRED', undefined, revoked?.revokedReason ? { details: { reason: revoked.revokedReason } } : {});
}

export function bearerToken(c: Context): string | undefined {
  const header = c.req.header('authorization') ?? '';
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

export const requireSuper: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get('actor').super) throw new AppError('ERR_NO_PERMISSION');
  await next();
};

export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!isCompanyAdmin(c.get('actor'))) throw new AppError('ERR_NO_PERMISSION');
  await next();
};

export function requirePermission(key: PermissionKey): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!can(c.get('actor'), key)) throw new AppError('ERR_NO_PERMISSION');
    await next();
  };
}

/**
 * The client address for rate limiting: the socket's, as @hono/node-server hands it over; behind a
 * trusted proxy (TRUSTED_PROXIES, e.g. the load balancer), the address that proxy saw, i.e. the
 * rightmost X-Forwarded-For entry that is not itself a trusted proxy (entries further left are
 * the client's word, which anyone can forge). Without it, every client behind a balancer would
 * share its address and one limit.
 */
export function clientIp(c: Context, trustedProxies: readonly string[] = []): string {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  const socket = env?.incoming?.socket?.remoteAddress;
  const trusted = (addr: string) => trustedProxies.includes(addr.replace(/^::ffff:/, ''));
  if (socket && trusted(socket)) {
    const hops = (c.req.header('x-forwarded-for') ?? '').split(',').map((h) => h.trim()).filter(Boolean);
    for (let i = hops.length - 1; i >= 0; i--) if (!trusted(hops[i]!)) return hops[i]!;
  }
  return socket ?? c.req.header('x-test-client-ip') ?? 'local';
}
