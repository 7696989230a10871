import { defineCommand } from '../../define.ts';
import { confirmDeletion } from '../../confirm.ts';
import { parseId } from '../../input.ts';
import { describeTarget, idArg, yesOption } from '../shared.ts';
import { companyScope } from './options.ts';

export default defineCommand({
  description: 'Delete a user (not yourself; asks first, --yes in scripts)',
  examples: ['zapdesk users delete 4', 'zapdesk users delete 4 --company-id 2 --yes'],
  args: [idArg('user')],
  options: companyScope.extend({ yes: yesOption }),
  async run({ args, options }, ctx) {
    const id = parseId(args[0], 'user');
    const companyId = options.companyId ? parseId(options.companyId, 'company') : undefined;
    const api = ctx.api();
    const what = await describeTarget(ctx, 'user', id, () => api.get(`/users/${id}`, { query: { companyId } }));
    await confirmDeletion(ctx, what, options.yes);
    await api.delete(`/users/${id}`, { query: { companyId } });
    return { id, deleted: true };
  },
  show: ({ id }) => ({ kind: 'text', text: `Deleted user ${id}.` }),
});
