import type { Campaign } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { parseId } from '../../input.ts';
import { idArg } from '../shared.ts';
import { showCampaign } from './format.ts';

export default defineCommand({
  description: 'Show one campaign: status, connection, recipients, messages, schedule',
  examples: ['zapdesk campaigns show 3', "zapdesk campaigns show 3 --json | jq '.status'"],
  args: [idArg('campaign')],
  options: z.object({}),
  run({ args }, ctx) {
    const id = parseId(args[0], 'campaign');
    return ctx.api().get<Campaign>(`/campaigns/${id}`);
  },
  show: showCampaign,
});
