import { z } from 'zod';
import { readConfig, serverUrl, updateConfig } from '../config.ts';
import { defineCommand } from '../define.ts';
import { UsageError } from '../errors.ts';
import { toLanguage } from '../lang.ts';
import { promptHidden, promptLine, readStdin } from '../prompt.ts';
import { memoryApi } from '../session.ts';

export const options = z.object({
  url: z.url({ protocol: /^https?$/, error: 'give the server address, like http://localhost:8080' }).optional().describe('server address (default: ZAPDESK_URL, the saved one, http://localhost:8080)'),
  email: z.string().trim().min(1).optional().describe('account email (asked for on a terminal when left out)'),
  passwordStdin: z.boolean().default(false).describe('read the password from standard input (for scripts)'),
});

export default defineCommand({
  description: 'Log in and keep the session in $XDG_CONFIG_HOME/zapdesk/config.json (mode 0600)',
  examples: [
    'zapdesk login --url http://localhost:8080 --email admin@zapdesk.local',
    "printf '%s' \"$ADMIN_PASSWORD\" | zapdesk login --email admin@zapdesk.local --password-stdin",
  ],
  options,
  async run({ options: o }, ctx) {
    const { env } = ctx.io;
    const url = (o.url ?? serverUrl(env, readConfig(env))).replace(/\/+$/, '');
    let email = o.email;
    if (!email) {
      if (!ctx.interactive) throw new UsageError("option '--email <email>' is required when not on a terminal");
      email = await promptLine(ctx.io, 'Email: ');
    }
    let password: string;
    if (o.passwordStdin) password = await readStdin(ctx.io);
    else if (ctx.io.stdin.isTTY) password = await promptHidden(ctx.io, 'Password: ');
    else throw new UsageError('give the password with --password-stdin, or run on a terminal to be asked for it');

    // Tokens are held in memory until the login succeeds: a failed one leaves the saved session alone.
    const session = memoryApi(url);
    const answer = await session.api.login(email, password);
    const { user } = answer;
    const language = toLanguage(user.language ?? undefined) ?? readConfig(env).language;
    // A new login replaces the old session entirely, on whichever server it was.
    updateConfig(env, { url, accessToken: answer.token, refreshToken: session.refreshToken(), refreshExpiresAt: session.refreshExpiresAt(), userId: user.id, companyId: user.companyId, email: user.email, language });
    return { url, user, subscription: answer.subscription };
  },
  show: ({ url, user, subscription }) => {
    const lines = [`Logged in to ${url} as ${user.email} (${user.super ? 'super-admin' : user.profile}, ${user.company.name})`];
    if (subscription.expiresSoon && subscription.daysLeft !== null) lines.push(`Your subscription expires in ${subscription.daysLeft} day(s).`);
    return { kind: 'text', text: lines.join('\n') };
  },
});
