import type { User, UsersPage } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { parseId } from '../../input.ts';
import { companyScope } from './options.ts';
import { userColumns } from './show.ts';

export default defineCommand({
  description: "List a company's users (admins: their own company; super-admin: any with --company-id)",
  examples: ['zapdesk users list', 'zapdesk users list --company-id 2 --search maria', "zapdesk users list --json | jq -r '.[].email'"],
  options: companyScope.extend({ search: z.string().trim().optional().describe('text to search in name and email') }),
  async run({ options }, ctx) {
    const api = ctx.api();
    const companyId = options.companyId ? parseId(options.companyId, 'company') : undefined;
    // The list is paged on the server; a script wants every user.
    const all: User[] = [];
    for (let pageNumber = 1; ; pageNumber++) {
      const page = await api.get<UsersPage>('/users', { query: { companyId, searchParam: options.search, pageNumber } });
      all.push(...page.users);
      if (!page.hasMore || page.users.length === 0) return all;
    }
  },
  show: (users) => ({ kind: 'table', columns: userColumns, rows: users, empty: 'No users found.', footer: users.some((u) => u.super) ? '* super-admin' : undefined }),
});
