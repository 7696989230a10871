import type { Campaign } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { idArg } from '../shared.ts';
import { campaignIn, plainRefusal } from './actions.ts';

export default defineCommand({
  description: 'Continue a paused (cancelled) campaign where it stopped: recipients already sent are not sent again',
  examples: ['zapdesk campaigns restart 3', 'zapdesk campaigns restart 3 && zapdesk campaigns report 3 --watch'],
  args: [idArg('campaign')],
  options: z.object({}),
  async run({ args }, ctx) {
    const { api, campaign } = await campaignIn(ctx, args[0], ['CANCELADA'], (c) =>
      c.status === 'INATIVA' || c.status === 'PROGRAMADA' ? `it has not started: zapdesk campaigns start ${c.id}` : 'only a paused (CANCELADA) campaign can be restarted',
    );
    return api.post<Campaign>(`/campaigns/${campaign.id}/restart`).catch((err: unknown) => {
      throw plainRefusal(err);
    });
  },
  show: (c) => ({ kind: 'text', text: `Restarted campaign ${c.id}: ${c.name} (${c.status}). Follow it with: zapdesk campaigns report ${c.id} --watch` }),
});
