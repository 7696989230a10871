import { AppError, type SessionUser } from '@zapdesk/sync';
import { z } from 'zod';
import { serverUrl } from '../config.ts';
import { defineCommand } from '../define.ts';

export default defineCommand({
  description: 'Show who is logged in, in which company, on which server',
  examples: ['zapdesk whoami', 'zapdesk whoami --json | jq .company.id'],
  options: z.object({}),
  async run(_input, ctx) {
    const api = ctx.api();
    // The shared client does not refresh on a 403 from /auth/* paths (login's 403 means an inactive
    // company), so an expired token on /auth/me is refreshed here, once.
    const me = await api.get<SessionUser>('/auth/me').catch(async (err: unknown) => {
      if (!(err instanceof AppError && err.code === 'ERR_TOKEN_EXPIRED')) throw err;
      await api.refresh();
      return api.get<SessionUser>('/auth/me');
    });
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
