import { z } from 'zod';
import { readConfig, removeSession } from '../config.ts';
import { defineCommand } from '../define.ts';

export default defineCommand({
  description: 'End the session on the server and forget it here (the server address is kept)',
  examples: ['zapdesk logout'],
  options: z.object({}),
  noJson: true,
  async run(_input, ctx) {
    const config = readConfig(ctx.io.env);
    if (!config.refreshToken && !config.accessToken) return { wasLoggedIn: false };
    // The session is forgotten locally even when the server cannot be reached.
    await ctx.savedSessionApi().logout().catch(() => undefined);
    removeSession(ctx.io.env);
    return { wasLoggedIn: true, email: config.email };
  },
  show: (r) => ({ kind: 'text', text: r.wasLoggedIn ? `Logged out${r.email ? ` (${r.email})` : ''}.` : 'Not logged in.' }),
});
