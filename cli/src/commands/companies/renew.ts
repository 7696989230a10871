import type { Company } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { parseId } from '../../input.ts';
import { idArg } from '../shared.ts';
import { dueText } from './show.ts';

export default defineCommand({
  description: "Renew a company: its due date moves on by its recurrence (MENSAL 1 month … ANUAL 12)",
  examples: ['zapdesk companies renew 2', 'zapdesk companies renew 2 --json | jq -r .dueDate'],
  args: [idArg('company')],
  options: z.object({}),
  run({ args }, ctx) {
    // The id is checked before the session, so a typo is a usage error even when logged out.
    const id = parseId(args[0], 'company');
    return ctx.api().post<Company>(`/companies/${id}/renew`);
  },
  show: (c) => ({ kind: 'text', text: `Renewed ${c.name} (${c.recurrence}): due ${dueText(c.dueDate)}.` }),
});
