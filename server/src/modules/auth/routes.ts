import { AppError, forgotPasswordSchema, loginSchema, resetPasswordSchema } from '@zapdesk/sync';
import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppDeps, AppEnv } from '../../context.ts';
import { clientIp, requireAuth } from '../../auth/middleware.ts';
import { verifyAccessToken } from '../../auth/tokens.ts';
import { parseBody, parseWith } from '../../http/validate.ts';
import { findCompanyRef, findUser } from '../users/dto.ts';
import { login, logout, refresh, requestPasswordReset, resetPassword, type SessionResult } from './service.ts';

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
      const session = await login(deps, input, { ip: clientIp(c), userAgent: c.req.header('user-agent') });
      return sendSession(c, session);
    })
    .post('/auth/refresh_token', async (c) => {
      try {
        return sendSession(c, await refresh(deps, getCookie(c, REFRESH_COOKIE)));
      } catch (err) {
        if (err instanceof AppError) deleteCookie(c, REFRESH_COOKIE, { path: '/' });
        throw err;
      }
    })
    .delete('/auth/logout', async (c) => {
      // Works with an expired access token too: the refresh cookie names the session.
      const header = c.req.header('authorization')?.replace(/^Bearer\s+/i, '');
      const verified = header ? await verifyAccessToken(header, deps.config.jwtSecret) : undefined;
      await logout(deps, getCookie(c, REFRESH_COOKIE), verified?.ok ? verified.claims.sid : undefined);
      deleteCookie(c, REFRESH_COOKIE, { path: '/' });
      return c.json({ message: 'Logged out' });
    })
    .get('/auth/me', requireAuth(deps), async (c) => {
      const actor = c.get('actor');
      const user = await findUser(deps.db, actor.companyId, actor.userId);
      const company = await findCompanyRef(deps.db, actor.companyId);
      if (!user || !company) throw new AppError('ERR_SESSION_EXPIRED');
      return c.json({ ...user, company });
    })
    .post('/forgetpassword/:email', async (c) => {
      const { email } = parseWith(forgotPasswordSchema, { email: c.req.param('email') });
      await requestPasswordReset(deps, email, clientIp(c));
      return c.json({ message: 'A reset code was sent to the email.' });
    })
    .post('/resetpasswords/:email/:token/:newPassword', async (c) => {
      const input = parseWith(resetPasswordSchema, {
        email: c.req.param('email'),
        token: c.req.param('token'),
        newPassword: c.req.param('newPassword'),
      });
      await resetPassword(deps, input, clientIp(c));
      return c.json({ message: 'Password changed.' });
    });
}
