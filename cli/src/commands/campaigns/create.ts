import type { Campaign } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { NetworkError, UsageError, UserError } from '../../errors.ts';
import { campaignBody, inFileTerms, readCampaignFile } from './file.ts';
import { when } from './format.ts';

export default defineCommand({
  description: 'Create a campaign from a YAML or JSON file (name, connection, contactList and/or tagList, fileList, messages, confirmation, confirmationMessages, scheduledAt); --start sends it now',
  examples: [
    'zapdesk campaigns create --from-file black-friday.yaml',
    'zapdesk campaigns create --from-file black-friday.yaml --start',
    "zapdesk campaigns create --from-file campaign.json --json | jq '.id'",
    "printf 'name: Promo\\nconnection: Sales\\ncontactList: Leads\\nmessages: [\"Hi {primeiro-nome}\", \"{saudacao}!\"]\\n' | zapdesk campaigns create --from-file - --start",
  ],
  options: z.object({
    fromFile: z.string().describe('the campaign file, YAML or JSON ("-" reads standard input)'),
    start: z.boolean().default(false).describe('start sending now (instead of the file\'s scheduledAt)'),
  }),
  async run({ options }, ctx) {
    const file = options.fromFile;
    const campaign = await readCampaignFile(ctx, file);
    if (options.start && campaign.scheduledAt) throw new UsageError(`${file} sets scheduledAt: leave it out to use --start`);
    const api = ctx.api();
    const label = file === '-' ? 'standard input' : file;
    const inFile = (err: unknown) => {
      const e = inFileTerms(err);
      return e instanceof UserError && !(e instanceof NetworkError) ? new UserError(`${label}: ${e.message}`) : e;
    };
    const body = await campaignBody(api, campaign, options.start ? new Date().toISOString() : campaign.scheduledAt).catch((err: unknown) => {
      throw inFile(err);
    });
    return api.post<Campaign>('/campaigns', body).catch((err: unknown) => {
      throw inFile(err);
    });
  },
  show: (c, { options }) => ({
    kind: 'text',
    text:
      c.status === 'INATIVA'
        ? `Created campaign ${c.id}: ${c.name} (INATIVA). Start it with: zapdesk campaigns start ${c.id}`
        : options.start
          ? `Created campaign ${c.id}: ${c.name}, starting now. Follow it with: zapdesk campaigns report ${c.id} --watch`
          : `Created campaign ${c.id}: ${c.name}, scheduled for ${when(c.scheduledAt)} (${c.status}).`,
  }),
});
