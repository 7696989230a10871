import { defineCommand } from '../../define.ts';
import { parseId } from '../../input.ts';
import { idArg } from '../shared.ts';
import { companyScope } from './options.ts';

export default defineCommand({
  description: 'Delete a user (not yourself)',
  examples: ['zapdesk users delete 4', 'zapdesk users delete 4 --company-id 2'],
  args: [idArg('user')],
  options: companyScope,
  async run({ args, options }, ctx) {
    const id = parseId(args[0], 'user');
    const companyId = options.companyId ? parseId(options.companyId, 'company') : undefined;
    await ctx.api().delete(`/users/${id}`, { query: { companyId } });
    return { id, deleted: true };
  },
  show: ({ id }) => ({ kind: 'text', text: `Deleted user ${id}.` }),
});
