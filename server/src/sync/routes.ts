// POST /sync/pull and POST /sync/push, behind the same bearer auth as REST.
import { Hono } from 'hono';
import { z } from 'zod';
import { requireAuth } from '../auth/middleware.ts';
import type { AppDeps, AppEnv } from '../context.ts';
import { parseBody, parseWith } from '../http/validate.ts';
import { pull, pullRequestSchema } from './pull.ts';
import { push, pushRequestSchema } from './push.ts';
import { createSyncStore } from './store.ts';

// A request of another protocol version is answered the Replicache way, not as a 400.
const versionOf = (key: 'pullVersion' | 'pushVersion') => z.looseObject({ [key]: z.unknown() });

export function syncRoutes(deps: AppDeps) {
  const store = createSyncStore(deps.db, deps.dialect);
  const auth = requireAuth(deps);
  return new Hono<AppEnv>()
    .post('/sync/pull', auth, async (c) => {
      const body = await parseBody(c, versionOf('pullVersion'));
      if (body.pullVersion !== 1) return c.json({ error: 'VersionNotSupported', versionType: 'pull' });
      const { response } = await pull(deps, store, c.get('actor'), parseWith(pullRequestSchema, body));
      return c.json(response);
    })
    .post('/sync/push', auth, async (c) => {
      const body = await parseBody(c, versionOf('pushVersion'));
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
