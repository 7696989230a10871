import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { FORMATS, importSpreadsheet, summaryText } from './import-run.ts';

export default defineCommand({
  description: 'Import contacts from a spreadsheet (.xlsx, .xls or .csv); rerunning the same file imports nothing twice',
  examples: [
    'zapdesk contacts import contatos.xlsx',
    'zapdesk contacts import leads.csv --errors rejected.csv',
    "zapdesk contacts import leads.csv --json | jq '.imported'",
  ],
  args: [{ name: 'file', description: 'the spreadsheet: titles in the first row (name, number, email), or no titles and those columns in that order' }],
  options: z.object({
    errors: z.string().optional().describe('write the rejected rows (row number, name, number, email, reason) to this csv file'),
    format: z.enum(FORMATS).optional().describe('the file format when the name does not end in .xlsx, .xls or .csv'),
  }),
  async run({ args, options }, ctx) {
    return importSpreadsheet(ctx, '/contacts/import/file', args[0]!, { ...options, json: Boolean((options as { json?: boolean }).json) });
  },
  show: (s) => ({ kind: 'text', text: summaryText(s) }),
});

