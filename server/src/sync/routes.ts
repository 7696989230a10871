// POST /sync/pull and POST /sync/push, behind the same bearer auth as REST.
import { AppError, type Profile } from '@zapdesk/sync';
import { Hono, type MiddlewareHandler } from 'hono';
import { sql } from 'kysely';
import { z } from 'zod';
import { bearerToken } from '../auth/middleware.ts';
import { verifyAccessToken, type AccessClaims } from '../auth/tokens.ts';
import type { AppDeps, AppEnv } from '../context.ts';
import { parseBody, parseWith } from '../http/validate.ts';
import { pull, pullRequestSchema } from './pull.ts';
import { push, pushRequestSchema } from './push.ts';
import { createSyncStore } from './store.ts';

// A request of another protocol version is answered the Replicache way, not as a 400.
const pullVersionOf = z.looseObject({ pullVersion: z.unknown() });
const pushVersionOf = z.looseObject({ pushVersion: z.unknown() });

/** Verified access tokens kept, so a pull does not pay the HMAC again (see syncAuth). */
const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * requireAuth's rules (auth/middleware.ts), on the path every poke multiplies by the number of
 * connected clients: a token whose signature was verified once is remembered with its expiry
 * (a verified signature is an immutable fact; the expiry is checked on every request), and the
 * session check stays a database read on every request, in one prepared statement, so a revoked
 * session, a deleted user or a role change applies at once exactly as on REST.
 */
function syncAuth(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const verified = new Map<string, { claims: AccessClaims; exp: number }>();
  return async (c, next) => {
    const token = bearerToken(c);
    if (!token) throw new AppError('ERR_SESSION_EXPIRED');
    let hit = verified.get(token);
    if (hit && hit.exp * 1000 <= Date.now()) {
      verified.delete(token);
      hit = undefined;
    }
    if (!hit) {
      const result = await verifyAccessToken(token, deps.config.jwtSecret);
      if (!result.ok) throw new AppError(result.reason === 'expired' ? 'ERR_TOKEN_EXPIRED' : 'ERR_SESSION_EXPIRED');
      const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp?: number };
      hit = { claims: result.claims, exp: typeof exp === 'number' ? exp : 0 };
      // Only tokens that expire are remembered (every token we sign does).
      if (hit.exp > 0) {
        if (verified.size >= VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value!);
        verified.set(token, hit);
      }
    }
    const { sub, cid, sid } = hit.claims;
    const { rows } = await sql<{ profile: string; super: number; companyId: number }>`
      SELECT u.profile AS profile, u.super AS super, u.company_id AS company_id
      FROM user_sessions s JOIN users u ON u.id = s.user_id
      WHERE s.id = ${sid} AND s.revoked_at IS NULL AND u.id = ${sub}`.execute(deps.db);
    const row = rows[0];
    if (!row || Number(row.companyId) !== cid) throw new AppError('ERR_SESSION_EXPIRED');
    c.set('actor', { userId: sub, companyId: cid, profile: row.profile as Profile, super: Number(row.super) === 1, sessionId: sid });
    await next();
  };
}

export function syncRoutes(deps: AppDeps) {
  const store = createSyncStore(deps.db, deps.dialect, { log: deps.log });
  const auth = syncAuth(deps);
  return new Hono<AppEnv>()
    .post('/sync/pull', auth, async (c) => {
      const body = await parseBody(c, pullVersionOf);
      if (body.pullVersion !== 1) return c.json({ error: 'VersionNotSupported', versionType: 'pull' });
      const { response } = await pull(deps, store, c.get('actor'), parseWith(pullRequestSchema, body));
      return c.json(response);
    })
    .post('/sync/push', auth, async (c) => {
      const body = await parseBody(c, pushVersionOf);
      if (body.pushVersion !== 1) return c.json({ error: 'VersionNotSupported', versionType: 'push' });
      const actor = c.get('actor');
      const result = await push(deps, actor, parseWith(pushRequestSchema, body));
      // After the commits, even when a later mutation stopped the push: applied changes reach the
      // whole company; recorded errors reach the pusher's own clients.
      if (result.applied > 0) deps.realtime.pokeCompany(actor.companyId);
      else if (result.failed > 0) deps.realtime.pokeUsers(actor.companyId, [actor.userId]);
      if (result.refusal) throw result.refusal;
      return c.json(result.response);
    });
}
