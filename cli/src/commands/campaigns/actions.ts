// What start, pause, cancel, restart and delete share: the campaign read first, so a campaign in
// the wrong status is told in words (the server's refusal is a bare ERR_VALIDATION, "Some fields
// are invalid"), then the one request; the server still decides (a conditional update on the
// status it leaves), and its reason is passed on if the campaign changed in between.
import { AppError, type Campaign, type CampaignStatus } from '@zapdesk/sync';
import { z } from 'zod';
import type { Ctx } from '../../context.ts';
import { defineCommand } from '../../define.ts';
import { UserError } from '../../errors.ts';
import { parseId } from '../../input.ts';
import type { Api } from '../../session.ts';
import { idArg } from '../shared.ts';

export const getCampaign = (api: Api, id: number) => api.get<Campaign>(`/campaigns/${id}`);

/** The server's words for a refused transition (its message has no field to name). */
export function plainRefusal(err: unknown): unknown {
  return err instanceof AppError && err.code === 'ERR_VALIDATION' && !err.issues?.length ? new UserError(err.message) : err;
}

/** Reads the campaign and refuses, naming its status and what to do instead, when `allowed` does not hold it. */
export async function campaignIn(ctx: Ctx, rawId: string | undefined, allowed: readonly CampaignStatus[], refusal: (c: Campaign) => string): Promise<{ api: Api; campaign: Campaign }> {
  const id = parseId(rawId, 'campaign');
  const api = ctx.api();
  const campaign = await getCampaign(api, id);
  if (!allowed.includes(campaign.status)) throw new UserError(`campaign ${id} is ${campaign.status}: ${refusal(campaign)}`);
  return { api, campaign };
}

const STOPPABLE = ['PROGRAMADA', 'EM_ANDAMENTO'] as const;

/** pause and cancel: the spec has one stop, CANCELADA, which restart continues from. */
export function stopCommand(verb: 'pause' | 'cancel') {
  return defineCommand({
    description:
      verb === 'pause'
        ? 'Pause a running or scheduled campaign: the same as cancel (status CANCELADA); restart continues where it stopped'
        : 'Cancel a running or scheduled campaign (status CANCELADA, as pause does); messages already queued still leave, and restart continues where it stopped',
    // Different campaigns: the examples test runs both, and a paused campaign cannot be cancelled.
    examples: [`zapdesk campaigns ${verb} 3`, `zapdesk campaigns ${verb} ${verb === 'pause' ? 3 : 2} --json | jq '.status'`],
    args: [idArg('campaign')],
    options: z.object({}),
    async run({ args }, ctx) {
      const { api, campaign } = await campaignIn(ctx, args[0], STOPPABLE, (c) => (c.status === 'CANCELADA' ? 'it is stopped already' : `only a PROGRAMADA or EM_ANDAMENTO campaign can be ${verb === 'pause' ? 'paused' : 'cancelled'}`));
      return api.post<Campaign>(`/campaigns/${campaign.id}/cancel`).catch((err: unknown) => {
        throw plainRefusal(err);
      });
    },
    show: (c) => ({ kind: 'text', text: `${verb === 'pause' ? 'Paused' : 'Cancelled'} campaign ${c.id}: ${c.name} (CANCELADA). Continue it with: zapdesk campaigns restart ${c.id}` }),
  });
}
