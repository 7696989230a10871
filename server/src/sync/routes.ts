// POST /sync/pull and POST /sync/push, behind the same bearer auth as REST.
import type { Profile } from '@zapdesk/sync';
import { Hono, type MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { bearerToken, sessionEnded } from '../auth/middleware.ts';
import type { AppDeps, AppEnv } from '../context.ts';
import { parseBody, parseWith } from '../http/validate.ts';
import { push, pushRequestSchema } from './push.ts';
import { statement } from './statements.ts';
import { syncServiceOf, type SyncService } from './service.ts';

const pushVersionOf = z.looseObject({ pushVersion: z.unknown() });

/**
 * requireAuth's rules (auth/middleware.ts) for a push: the token through the sync service's check
 * (its verified signature remembered), and the session read in one prepared statement, so a
 * revoked session, a deleted user or a role change applies at once exactly as on REST. A pull
 * reads the session itself, in its first statement (pull.ts).
 */
function syncAuth(deps: AppDeps, sync: SyncService): MiddlewareHandler<AppEnv> {
  const findSession = statement<{ profile: string; super: number; companyId: number }>(
    deps.dialect,
    `SELECT u.profile AS profile, u.super AS super, u.company_id AS company_id
     FROM user_sessions s JOIN users u ON u.id = s.user_id
     WHERE s.id = ? AND s.revoked_at IS NULL AND u.id = ?`,
  );
  return async (c, next) => {
    const { sub, cid, sid } = await sync.verifyToken(bearerToken(c));
    const row = (await findSession(deps.db, sid, sub))[0];
    if (!row || Number(row.companyId) !== cid) throw await sessionEnded(deps, sid, sub);
    c.set('actor', { userId: sub, companyId: cid, profile: row.profile as Profile, super: Number(row.super) === 1, sessionId: sid });
    await next();
  };
}

export function syncRoutes(deps: AppDeps) {
  const sync = syncServiceOf(deps);
  const auth = syncAuth(deps, sync);
  return new Hono<AppEnv>()
    .post('/sync/pull', async (c) => {
      // The token before the body, as requireAuth does (the check is remembered, so pull() repeats it for free).
      const token = bearerToken(c);
      await sync.verifyToken(token);
      // The answer comes as its JSON text (made on the pull thread, when it runs there).
      const { text } = await sync.pull(token, await parseBody(c, z.unknown()));
      return c.body(text, 200, { 'content-type': 'application/json' });
    })
    .post('/sync/push', auth, async (c) => {
      const body = await parseBody(c, pushVersionOf);
      if (body.pushVersion !== 1) return c.json({ error: 'VersionNotSupported', versionType: 'push' });
      const actor = c.get('actor');
      // Each mutation's effects (pokes, sends) ran after its own commit.
      const result = await push(deps, actor, parseWith(pushRequestSchema, body));
      if (result.refusal) throw result.refusal;
      return c.json(result.response);
    });
}
