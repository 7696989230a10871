// There is no start route: a campaign starts when its time comes. `start` sets scheduledAt to now
// (INATIVA or PROGRAMADA → PROGRAMADA) and the server's dispatch loop starts it within about a
// second (EM_ANDAMENTO), which this command waits a few seconds to see.
import { AppError, type Campaign } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { UserError } from '../../errors.ts';
import { idArg } from '../shared.ts';
import { campaignIn, getCampaign, plainRefusal } from './actions.ts';
import { fileFieldOf } from './file.ts';
import { when } from './format.ts';

const WAIT_MS = 5_000;

export default defineCommand({
  description: 'Start sending a campaign now (INATIVA or scheduled for later); a paused one continues with restart',
  examples: ['zapdesk campaigns start 3', 'zapdesk campaigns start 3 && zapdesk campaigns report 3 --watch'],
  args: [idArg('campaign')],
  options: z.object({}),
  async run({ args }, ctx) {
    const { api, campaign } = await campaignIn(ctx, args[0], ['INATIVA', 'PROGRAMADA'], (c) =>
      c.status === 'CANCELADA' ? `it was paused: continue it with zapdesk campaigns restart ${c.id}` : c.status === 'EM_ANDAMENTO' ? 'it is sending already' : 'it has finished',
    );
    // Less than an hour ahead a programmed campaign may no longer change (spec/03 §4): it starts then.
    if (!campaign.editable) throw new UserError(`campaign ${campaign.id} starts at ${when(campaign.scheduledAt)} and can no longer be changed (less than an hour ahead)`);
    await api.put<Campaign>(`/campaigns/${campaign.id}`, { scheduledAt: new Date().toISOString() }).catch((err: unknown) => {
      const issue = err instanceof AppError ? err.issues?.[0] : undefined;
      throw issue?.path ? new UserError(`campaign ${campaign.id} cannot start: ${fileFieldOf(issue.path)}: ${issue.message}`) : plainRefusal(err);
    });
    for (const until = Date.now() + WAIT_MS; ; ) {
      const now = await getCampaign(api, campaign.id);
      if (now.status !== 'PROGRAMADA' || Date.now() > until) return now;
      await new Promise((r) => setTimeout(r, 200));
    }
  },
  show: (c) => ({
    kind: 'text',
    text:
      c.status === 'FINALIZADA'
        ? `Campaign ${c.id}: ${c.name} was sent and has finished (FINALIZADA). See: zapdesk campaigns report ${c.id}`
        : c.status === 'PROGRAMADA'
        ? `Campaign ${c.id}: ${c.name} is scheduled to start now; the server starts it shortly. Follow it with: zapdesk campaigns report ${c.id} --watch`
        : `Started campaign ${c.id}: ${c.name} (${c.status}). Follow it with: zapdesk campaigns report ${c.id} --watch`,
  }),
});
