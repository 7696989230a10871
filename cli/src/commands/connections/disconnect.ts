import type { Connection } from '@zapdesk/sync';
import { defineCommand } from '../../define.ts';
import { parseId } from '../../input.ts';
import { idArg } from '../shared.ts';
import { companyScope, scopeQuery } from './options.ts';

export default defineCommand({
  description: 'Log a connection out of WhatsApp (pair it again to reconnect)',
  examples: ['zapdesk connections disconnect 3'],
  args: [idArg('connection')],
  options: companyScope,
  async run({ args, options }, ctx) {
    const id = parseId(args[0], 'connection');
    return ctx.api().delete<Connection>(`/whatsappsession/${id}`, { query: scopeQuery(options.companyId) });
  },
  show: (w) => ({ kind: 'text', text: `Connection ${w.id} (${w.name}) is ${w.status}.` }),
});
