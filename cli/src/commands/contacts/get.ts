import type { Contact } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { parseId } from '../../input.ts';
import { idArg } from '../shared.ts';
import { showContact } from './show.ts';

export default defineCommand({
  description: 'Show one contact with its extra fields',
  examples: ['zapdesk contacts get 12', 'zapdesk contacts get 12 --json'],
  args: [idArg('contact')],
  options: z.object({}),
  run: ({ args }, ctx) => ctx.api().get<Contact>(`/contacts/${parseId(args[0], 'contact')}`),
  show: showContact,
});
