import { helpUpdateSchema, type Help } from '@zapdesk/sync';
import { defineCommand } from '../../define.ts';
import { buildBody, givenFlags, parseId } from '../../input.ts';
import { idArg } from '../shared.ts';
import { helpOptions } from './options.ts';
import { showHelp } from './show.ts';

export default defineCommand({
  description: 'Change a help video (super-admin): only the fields given change',
  examples: ['zapdesk helps update 1 --title "Pairing a phone"', 'zapdesk helps update 1 --from-file help.yaml'],
  args: [idArg('help')],
  options: helpOptions,
  async run({ args, options }, ctx) {
    const id = parseId(args[0], 'help');
    const body = await buildBody(ctx, helpUpdateSchema, options.fromFile, givenFlags(options));
    return ctx.api().put<Help>(`/helps/${id}`, body);
  },
  show: showHelp,
});
