import { companyCreateSchema, type Company } from '@zapdesk/sync';
import { defineCommand } from '../../define.ts';
import { UsageError } from '../../errors.ts';
import { buildBody, givenFlags } from '../../input.ts';
import { readStdin } from '../../prompt.ts';
import { companyCreateOptions } from './options.ts';
import { showCompany } from './show.ts';

export default defineCommand({
  description: 'Create a company (super-admin), with its first admin when a password is given',
  examples: [
    'zapdesk companies create --name "Acme Ltda" --email ops@acme.test --plan-id 3 --due-date 2026-12-31 --recurrence MENSAL',
    "printf '%s' \"$PASS\" | zapdesk companies create --from-file acme.yaml --plan-id 3 --admin-password-stdin --json",
  ],
  options: companyCreateOptions,
  async run({ options }, ctx) {
    const flags = givenFlags(options, ['adminPasswordStdin']);
    if (options.adminPasswordStdin) {
      if (options.fromFile === '-') throw new UsageError('--admin-password-stdin and --from-file - both want standard input');
      flags.password = await readStdin(ctx.io);
    }
    const body = await buildBody(ctx, companyCreateSchema, options.fromFile, flags);
    return ctx.api().post<Company>('/companies', body);
  },
  show: showCompany,
});
