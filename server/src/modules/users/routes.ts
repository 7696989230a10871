import { companyScopeQuerySchema, setLanguageParamsSchema, userCreateSchema, userListQuerySchema, userUpdateSchema } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { resolveCompanyId } from '../../auth/company-scope.ts';
import { requireAdmin, requireAuth } from '../../auth/middleware.ts';
import { hashPassword } from '../../auth/password.ts';
import { inSlices } from '../../db/slices.ts';
import { write } from '../../db/write.ts';
import { parseBody, parseId, parseQuery, parseWith } from '../../http/validate.ts';
import { findCompanyUserRefs, findUsersPage } from './queries.ts';
import { assertDeletable, createUser, deleteUser, getUser, releaseUserSlice, setLanguage, updateUser } from './service.ts';

// The spec writes some list paths with a trailing slash (GET /users/), so both spellings answer.
// Middleware is attached per route, not with use('*'): this sub-app is mounted at '/', where a
// wildcard would also guard the public auth routes.
export function usersRoutes(deps: AppDeps) {
  const auth = requireAuth(deps);
  return (
    new Hono<AppEnv>()
      .on('GET', ['/users', '/users/'], auth, requireAdmin, async (c) => {
        const query = parseQuery(c, userListQuerySchema);
        const actor = c.get('actor');
        const companyId = await resolveCompanyId(deps.db, actor, query.companyId);
        return c.json(await findUsersPage(deps.db, companyId, query.searchParam, query.pageNumber, actor.userId));
      })
      // Registered before /users/:id so "list" is never read as an id.
      .get('/users/list', auth, async (c) => {
        const query = parseQuery(c, companyScopeQuerySchema);
        return c.json(await findCompanyUserRefs(deps.db, await resolveCompanyId(deps.db, c.get('actor'), query.companyId)));
      })
      .get('/users/:id', auth, async (c) => {
        const userId = parseId(c, 'id', 'ERR_NO_USER_FOUND');
        const actor = c.get('actor');
        const companyId = await resolveCompanyId(deps.db, actor, parseQuery(c, companyScopeQuerySchema).companyId);
        return c.json(await getUser(deps.db, actor, companyId, userId));
      })
      .on('POST', ['/users', '/users/'], auth, requireAdmin, async (c) => {
        const input = await parseBody(c, userCreateSchema);
        // Hashing is slow: done before the write so it holds no lock meanwhile.
        const passwordHash = await hashPassword(input.password);
        return c.json(await write(deps, (tx) => createUser(tx, c.get('actor'), input, passwordHash)), 201);
      })
      .put('/users/:id', auth, async (c) => {
        const userId = parseId(c, 'id', 'ERR_NO_USER_FOUND');
        const input = await parseBody(c, userUpdateSchema);
        const actor = c.get('actor');
        const companyId = await resolveCompanyId(deps.db, actor, parseQuery(c, companyScopeQuerySchema).companyId ?? input.companyId);
        const passwordHash = input.password === undefined ? undefined : await hashPassword(input.password);
        return c.json(await write(deps, (tx) => updateUser(tx, actor, companyId, userId, input, passwordHash)));
      })
      .delete('/users/:id', auth, requireAdmin, async (c) => {
        const userId = parseId(c, 'id', 'ERR_NO_USER_FOUND');
        const actor = c.get('actor');
        const companyId = await resolveCompanyId(deps.db, actor, parseQuery(c, companyScopeQuerySchema).companyId);
        await write(deps, (tx) => assertDeletable(tx, actor, companyId, userId));
        await inSlices(deps, (tx, limit) => releaseUserSlice(tx, companyId, userId, limit));
        await write(deps, (tx) => deleteUser(tx, actor, companyId, userId));
        return c.json({ message: 'User deleted' });
      })
      .post('/users/set-language/:lang', auth, async (c) => {
        const { lang } = parseWith(setLanguageParamsSchema, { lang: c.req.param('lang') });
        return c.json(await write(deps, (tx) => setLanguage(tx, c.get('actor'), lang)));
      })
  );
}
