import { idSchema } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { FORMATS, importSpreadsheet, summaryText } from '../contacts/import-run.ts';

export default defineCommand({
  description: 'Import a spreadsheet (.xlsx, .xls or .csv) into a contact list; numbers already in the list are skipped',
  examples: [
    'zapdesk contact-lists import leads.xlsx --list 3',
    'zapdesk contact-lists import leads.csv --list 3 --errors rejected.csv',
    "zapdesk contact-lists import leads.csv --list 3 --json | jq '.imported'",
  ],
  args: [{ name: 'file', description: 'the spreadsheet: titles in the first row (name, number, email), or no titles and those columns in that order' }],
  options: z.object({
    list: idSchema.describe('the id of the contact list (see: zapdesk contact-lists list)'),
    errors: z.string().optional().describe('write the rejected rows (row number, name, number, reason) to this csv file'),
    format: z.enum(FORMATS).optional().describe('the file format when the name does not end in .xlsx, .xls or .csv'),
  }),
  async run({ args, options }, ctx) {
    const { list, ...rest } = options;
    const summary = await importSpreadsheet(ctx, `/contact-lists/${list}/upload`, args[0]!, { ...rest, json: Boolean((options as { json?: boolean }).json) });
    return { contactListId: list, ...summary };
  },
  show: (s) => ({ kind: 'text', text: summaryText(s) }),
});
