import { userUpdateSchema, type User } from '@zapdesk/sync';
import { defineCommand } from '../../define.ts';
import { buildBody, givenFlags, parseId } from '../../input.ts';
import { readStdin } from '../../prompt.ts';
import { idArg } from '../shared.ts';
import { userOptions } from './options.ts';
import { showUser } from './show.ts';

export default defineCommand({
  description: 'Change a user: only the fields given change',
  examples: ['zapdesk users update 4 --profile admin --queue-ids 1,2', "printf '%s' \"$NEW\" | zapdesk users update 4 --password-stdin"],
  args: [idArg('user')],
  options: userOptions,
  async run({ args, options }, ctx) {
    const id = parseId(args[0], 'user');
    const flags = givenFlags(options, ['passwordStdin']);
    if (options.passwordStdin) flags.password = await readStdin(ctx.io);
    const body = await buildBody(ctx, userUpdateSchema, options.fromFile, flags);
    return ctx.api().put<User>(`/users/${id}`, body, { query: { companyId: body.companyId as string | undefined } });
  },
  show: showUser,
});
