import { AppError, companyScopeQuerySchema, settingKeySchema, settingValueSchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { resolveCompanyId } from '../../auth/company-scope.ts';
import { requireAdmin, requireAuth } from '../../auth/middleware.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseQuery } from '../../http/validate.ts';
import { findSettings, upsertSetting } from './service.ts';

// GET /settings/ is the spec's spelling in one place, so both spellings answer. Middleware is per
// route: this sub-app is mounted at '/', where use('*') would guard every path.
export function settingsRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  return new Hono<AppEnv>()
    .on('GET', ['/settings', '/settings/'], auth, async (c) => {
      // Every signed-in user reads them: the web app behaves by them (ratings, greetings, cshow).
      const { companyId } = parseQuery(c, companyScopeQuerySchema);
      return c.json(await findSettings(deps.db, await resolveCompanyId(deps.db, c.get('actor'), companyId)));
    })
    .put('/settings/:key', auth, requireAdmin, async (c) => {
      const key = settingKeySchema.safeParse(c.req.param('key'));
      if (!key.success) throw new AppError('ERR_NO_SETTING_FOUND');
      const { value } = await parseBody(c, settingValueSchema(key.data));
      const { companyId } = parseQuery(c, companyScopeQuerySchema);
      const actor = c.get('actor');
      return c.json(await write(deps, async (tx) => upsertSetting(tx, await resolveCompanyId(tx.db, actor, companyId), key.data, value)));
    });
}
