import type { Connection } from '@zapdesk/sync';
import { defineCommand } from '../../define.ts';
import { companyScope, scopeQuery } from './options.ts';
import { connectionColumns } from './show.ts';

export default defineCommand({
  description: 'List the WhatsApp connections with their status',
  examples: ['zapdesk connections list', "zapdesk connections list --json | jq '.[] | select(.status != \"CONNECTED\")'"],
  options: companyScope,
  run: ({ options }, ctx) => ctx.api().get<Connection[]>('/whatsapp', { query: { ...scopeQuery(options.companyId), session: 0 } }),
  show: (rows) => ({ kind: 'table', columns: connectionColumns, rows, empty: 'No connections yet: zapdesk connections add --help' }),
});
