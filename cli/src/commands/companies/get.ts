import type { Company } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { parseId } from '../../input.ts';
import { idArg } from '../shared.ts';
import { showCompany } from './show.ts';

export default defineCommand({
  description: 'Show one company',
  examples: ['zapdesk companies get 2', 'zapdesk companies get 2 --json | jq .settings'],
  args: [idArg('company')],
  options: z.object({}),
  run({ args }, ctx) {
    // The id is checked before the session, so a typo is a usage error even when logged out.
    const id = parseId(args[0], 'company');
    return ctx.api().get<Company>(`/companies/${id}`);
  },
  show: showCompany,
});
