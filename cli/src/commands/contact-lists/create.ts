import { contactListNameSchema, type ContactList } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { UsageError } from '../../errors.ts';

export default defineCommand({
  description: 'Create a contact list (name 2 to 50 characters)',
  examples: ['zapdesk contact-lists create "Black Friday leads"', "zapdesk contact-lists create Customers --json | jq '.id'"],
  args: [{ name: 'name', description: 'the list name, 2 to 50 characters' }],
  options: z.object({}),
  async run({ args }, ctx) {
    const name = contactListNameSchema.safeParse(args[0]);
    if (!name.success) throw new UsageError(`name: ${name.error.issues[0]!.message}`);
    return ctx.api().post<ContactList>('/contact-lists', { name: name.data });
  },
  show: (l) => ({ kind: 'text', text: `Created contact list ${l.id}: ${l.name}` }),
});
