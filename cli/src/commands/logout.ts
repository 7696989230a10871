import { z } from 'zod';
import { readConfig, removeSession, removeStore } from '../config.ts';
import { defineCommand } from '../define.ts';
import { describeFailure } from '../errors.ts';
import { writeLine } from '../output.ts';

export default defineCommand({
  description: 'End the session on the server and forget it and the synced data here (the server address is kept)',
  examples: ['zapdesk logout'],
  options: z.object({}),
  noJson: true,
  async run(_input, ctx) {
    const { env } = ctx.io;
    const config = readConfig(env);
    // The synced copy of the company's data goes in any case: it belongs to the session.
    removeStore(env);
    if (!config.refreshToken && !config.accessToken) return { wasLoggedIn: false };
    // The session is forgotten here even when the server cannot be told; the user hears about it.
    // Not the client's logout(): it takes any answer, a 500 included, for done.
    const told = await ctx
      .savedSessionApi()
      .request('DELETE', '/auth/logout')
      .then(
        () => true,
        (err: unknown) => {
          const why = describeFailure(err, ctx.lang).line.replace(/^error: /, '');
          writeLine(ctx.io.stderr, `warning: the server could not be told: ${why}`);
          writeLine(ctx.io.stderr, 'The session is forgotten here; on the server it stays valid until it expires.');
          return false;
        },
      );
    removeSession(env);
    return { wasLoggedIn: true, email: config.email, serverTold: told };
  },
  show: (r) => ({ kind: 'text', text: r.wasLoggedIn ? `Logged out${r.email ? ` (${r.email})` : ''}${r.serverTold ? '' : ' on this computer only'}.` : 'Not logged in.' }),
});
