import { whatsappCreateSchema, type Connection } from '@zapdesk/sync';
import { defineCommand } from '../../define.ts';
import { buildBody, givenFlags } from '../../input.ts';
import { connectionOptions } from './options.ts';
import { showConnection } from './show.ts';

export default defineCommand({
  description: 'Add a WhatsApp connection; pair it with `zapdesk connections pair ID`',
  examples: ['zapdesk connections add --name Sales', 'zapdesk connections add --name Demo --provider simulator --is-default --json'],
  options: connectionOptions,
  async run({ options }, ctx) {
    const flags = givenFlags(options);
    if (typeof flags.companyId === 'string') flags.companyId = Number(flags.companyId);
    const body = await buildBody(ctx, whatsappCreateSchema, options.fromFile, flags);
    return ctx.api().post<Connection>('/whatsapp', body);
  },
  show: showConnection,
});
