import { companyUpdateSchema, type Company } from '@zapdesk/sync';
import { defineCommand } from '../../define.ts';
import { buildBody, givenFlags, parseId } from '../../input.ts';
import { idArg } from '../shared.ts';
import { companyOptions } from './options.ts';
import { showCompany } from './show.ts';

export default defineCommand({
  description: 'Change a company (super-admin): only the fields given change',
  examples: ['zapdesk companies update 2 --plan-id 4', 'zapdesk companies update 2 --no-status', 'zapdesk companies update 2 --from-file acme.yaml'],
  args: [idArg('company')],
  options: companyOptions,
  async run({ args, options }, ctx) {
    const id = parseId(args[0], 'company');
    const body = await buildBody(ctx, companyUpdateSchema, options.fromFile, givenFlags(options));
    return ctx.api().put<Company>(`/companies/${id}`, body);
  },
  show: showCompany,
});
