import { userCreateSchema, type User } from '@zapdesk/sync';
import { defineCommand } from '../../define.ts';
import { buildBody, givenFlags } from '../../input.ts';
import { readStdin } from '../../prompt.ts';
import { userOptions } from './options.ts';
import { showUser } from './show.ts';

export default defineCommand({
  description: 'Create a user in your company (super-admin: in any, with --company-id)',
  examples: [
    "printf '%s' \"$PASS\" | zapdesk users create --name 'Maria Souza' --email maria@acme.test --profile admin --password-stdin",
    'zapdesk users create --from-file maria.yaml --company-id 2 --json',
  ],
  options: userOptions,
  async run({ options }, ctx) {
    const flags = givenFlags(options, ['passwordStdin']);
    if (options.passwordStdin) flags.password = await readStdin(ctx.io);
    const body = await buildBody(ctx, userCreateSchema, options.fromFile, flags);
    return ctx.api().post<User>('/users', body);
  },
  show: showUser,
});
