import type { User } from '@zapdesk/sync';
import { defineCommand } from '../../define.ts';
import { parseId } from '../../input.ts';
import { idArg } from '../shared.ts';
import { companyScope } from './options.ts';
import { showUser } from './show.ts';

export default defineCommand({
  description: 'Show one user',
  examples: ['zapdesk users get 4', 'zapdesk users get 4 --company-id 2 --json'],
  args: [idArg('user')],
  options: companyScope,
  async run({ args, options }, ctx) {
    const id = parseId(args[0], 'user');
    const companyId = options.companyId ? parseId(options.companyId, 'company') : undefined;
    return ctx.api().get<User>(`/users/${id}`, { query: { companyId } });
  },
  show: showUser,
});
