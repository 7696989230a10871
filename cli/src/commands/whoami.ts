import { z } from 'zod';
import type { Me } from '../api/types.ts';
import { serverUrl } from '../config.ts';
import { defineCommand } from '../define.ts';

export default defineCommand({
  description: 'Show who is logged in, in which company, on which server',
  examples: ['zapdesk whoami', 'zapdesk whoami --json | jq .company.id'],
  options: z.object({}),
  async run(_input, ctx) {
    const me = await ctx.api().request<Me>('GET', '/auth/me');
    return { ...me, url: serverUrl(ctx.io.env, ctx.config) };
  },
  show: (me) => ({
    kind: 'record',
    fields: [
      ['user', `${me.name} <${me.email}>`],
      ['id', me.id],
      ['profile', me.super ? `${me.profile}, super-admin` : me.profile],
      ['company', `${me.company.name} (id ${me.company.id})`],
      ['due date', me.company.dueDate],
      ['server', me.url],
    ],
  }),
});
