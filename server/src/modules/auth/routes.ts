// Auth routes: login, refresh, logout, /auth/me and the password reset. Each write is one
// `write()` (db/write.ts); checks that need none run before it, and the reset mail after it.
import { AppError, forgotPasswordSchema, loginSchema, resetPasswordSchema } from '@zapdesk/sync';
import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppDeps, AppEnv } from '../../context.ts';
import { clientIp, requireAuth } from '../../auth/middleware.ts';
import { hashPassword } from '../../auth/password.ts';
import { verifyAccessToken } from '../../auth/tokens.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseWith } from '../../http/validate.ts';
import { markUsersOffline } from '../../realtime/presence.ts';
import { findSessionUser } from '../users/dto.ts';
import { applyResetCode, findResetAccount, issueResetCode, mailResetCode } from './reset.ts';
import { checkCredentials, endSession, openSession, rotateRefreshToken, type SessionResult } from './service.ts';

export const REFRESH_COOKIE = 'jrt';

export function authRoutes(deps: AppDeps) {
  const sendSession = (c: Context, session: SessionResult) => {
    setCookie(c, REFRESH_COOKIE, session.refreshToken, {
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
      secure: new URL(c.req.url).protocol === 'https:',
      maxAge: deps.config.refreshTokenTtlSec,
    });
    const { refreshToken: _spent, ...body } = session;
    return c.json(body);
  };

  return new Hono<AppEnv>()
    .post('/auth/login', async (c) => {
      const input = await parseBody(c, loginSchema);
      const ip = clientIp(c, deps.config.trustedProxies);
      const account = await checkCredentials(deps, input, ip);
      return sendSession(c, await write(deps, (tx) => openSession(tx, account, { ip, userAgent: c.req.header('user-agent') })));
    })
    .post('/auth/refresh_token', async (c) => {
      try {
        const presented = getCookie(c, REFRESH_COOKIE);
        if (!presented) throw new AppError('ERR_SESSION_EXPIRED');
        const session = await write(deps, (tx) => rotateRefreshToken(tx, presented));
        // A spent token presented again: its session is now revoked (committed), and the caller refused.
        if (!session) throw new AppError('ERR_SESSION_EXPIRED');
        return sendSession(c, session);
      } catch (err) {
        if (err instanceof AppError) deleteCookie(c, REFRESH_COOKIE, { path: '/' });
        throw err;
      }
    })
    .delete('/auth/logout', async (c) => {
      // Works with an expired access token too: the refresh cookie names the session.
      const header = c.req.header('authorization')?.replace(/^Bearer\s+/i, '');
      const verified = header ? await verifyAccessToken(header, deps.config.jwtSecret) : undefined;
      // A login revokes the user's other sessions, so this was their only one: offline now, not
      // after the sockets' grace period (realtime/README.md, presence), in the same write.
      await write(deps, async (tx) => {
        const ended = await endSession(tx, getCookie(c, REFRESH_COOKIE), verified?.ok ? verified.claims.sid : undefined);
        if (ended) await markUsersOffline(tx, ended.companyId, [ended.userId]);
      });
      deleteCookie(c, REFRESH_COOKIE, { path: '/' });
      return c.json({ message: 'Logged out' });
    })
    .get('/auth/me', requireAuth(deps), async (c) => {
      const actor = c.get('actor');
      const user = await findSessionUser(deps.db, actor.companyId, actor.userId);
      if (!user) throw new AppError('ERR_SESSION_EXPIRED');
      return c.json(user);
    })
    .post('/forgetpassword/:email', async (c) => {
      const { email } = parseWith(forgotPasswordSchema, { email: c.req.param('email') });
      const account = await findResetAccount(deps, email, clientIp(c, deps.config.trustedProxies));
      const code = await write(deps, (tx) => issueResetCode(tx, account));
      await mailResetCode(deps, account, code);
      return c.json({ message: 'A reset code was sent to the email.' });
    })
    .post('/resetpasswords/:email/:token/:newPassword', async (c) => {
      const input = parseWith(resetPasswordSchema, {
        email: c.req.param('email'),
        token: c.req.param('token'),
        newPassword: c.req.param('newPassword'),
      });
      const account = await findResetAccount(deps, input.email, clientIp(c, deps.config.trustedProxies));
      const passwordHash = await hashPassword(input.newPassword);
      // A wrong code is counted (committed) before the refusal.
      if (!(await write(deps, (tx) => applyResetCode(tx, account, input.token, passwordHash)))) throw new AppError('ERR_INVALID_RESET_CODE');
      return c.json({ message: 'Password changed.' });
    });
}
