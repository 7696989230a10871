import { z } from 'zod';
import { confirmDeletion } from '../../confirm.ts';
import { defineCommand } from '../../define.ts';
import { idArg, yesOption } from '../shared.ts';
import { campaignIn, plainRefusal } from './actions.ts';

export default defineCommand({
  description: 'Delete a campaign with its report (asks first; --yes in scripts); a running one must be paused first',
  examples: ['zapdesk campaigns delete 3', 'zapdesk campaigns delete 3 --yes'],
  args: [idArg('campaign')],
  options: z.object({ yes: yesOption }),
  async run({ args, options }, ctx) {
    const { api, campaign } = await campaignIn(ctx, args[0], ['INATIVA', 'PROGRAMADA', 'CANCELADA', 'FINALIZADA'], (c) => `pause it first: zapdesk campaigns pause ${c.id}`);
    await confirmDeletion(ctx, `campaign ${campaign.id} (${campaign.name})`, options.yes);
    await api.delete(`/campaigns/${campaign.id}`).catch((err: unknown) => {
      throw plainRefusal(err);
    });
    return { id: campaign.id, deleted: true };
  },
  show: ({ id }) => ({ kind: 'text', text: `Deleted campaign ${id}.` }),
});
