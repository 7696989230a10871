import { formatCents, type Invoice } from '@zapdesk/sync';
import { z } from 'zod';
import { defineCommand } from '../../define.ts';
import { parseId } from '../../input.ts';
import { idArg } from '../shared.ts';

type Outcome = { invoice: Invoice; dueDate: string | null; changed: boolean };

export default defineCommand({
  description: "Pay an invoice through the simulator's bank (server started with SIMULATOR=1): paid once, due date extended",
  examples: ['zapdesk invoices pay-sim 12', 'zapdesk invoices pay-sim 12 --json'],
  args: [idArg('invoice')],
  options: z.object({}),
  run({ args }, ctx) {
    // The id is checked before the session, so a typo is a usage error even when logged out.
    const id = parseId(args[0], 'invoice');
    return ctx.api().post<Outcome>(`/simulator/payments/${id}/confirm`);
  },
  show: (o, { lang }) => ({
    kind: 'text',
    text: o.changed
      ? `Invoice ${o.invoice.id} paid (${formatCents(o.invoice.valueCents, lang)}): ${o.invoice.companyName} is due ${o.dueDate?.slice(0, 10) ?? '-'}.`
      : `Invoice ${o.invoice.id} was already paid: nothing changed (due ${o.dueDate?.slice(0, 10) ?? '-'}).`,
  }),
});
