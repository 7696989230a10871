import { helpCreateSchema, type Help } from '@zapdesk/sync';
import { defineCommand } from '../../define.ts';
import { buildBody, givenFlags } from '../../input.ts';
import { helpOptions } from './options.ts';
import { showHelp } from './show.ts';

export default defineCommand({
  description: 'Add a help video (super-admin)',
  examples: ['zapdesk helps create --title "Connecting WhatsApp" --video https://youtu.be/dQw4w9WgXcQ', 'zapdesk helps create --from-file help.yaml --json'],
  options: helpOptions,
  async run({ options }, ctx) {
    const body = await buildBody(ctx, helpCreateSchema, options.fromFile, givenFlags(options));
    return ctx.api().post<Help>('/helps', body);
  },
  show: showHelp,
});
