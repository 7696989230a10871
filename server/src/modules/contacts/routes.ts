import { AppError } from '@zapdesk/sync';
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../../context.ts';
import { requireAuth } from '../../auth/middleware.ts';
import { parseId } from '../../http/validate.ts';
import { findContact, findExtraInfo, toContactDto } from './queries.ts';

// Only what tickets need now; the full contacts REST (list, create, import, export) is issue 5.
export function contactsRoutes(deps: AppDeps) {
  return new Hono<AppEnv>().get('/contacts/:id', requireAuth(deps), async (c) => {
    const { companyId } = c.get('actor');
    const row = await findContact(deps.db, companyId, parseId(c, 'id', 'ERR_NO_CONTACT_FOUND'));
    if (!row) throw new AppError('ERR_NO_CONTACT_FOUND');
    return c.json(toContactDto(row, await findExtraInfo(deps.db, companyId, row.id)));
  });
}
