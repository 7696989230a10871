// The invoice job (DESIGN §6, §14): every company on a plan gets one invoice per period of its
// recurrence. When a company's due date comes within INVOICE_LEAD_DAYS (or has passed), the
// invoice for the period starting at that due date is inserted: value = the plan's monthly price ×
// the recurrence's months, due on the company's due date. The unique index (company_id, due_date)
// makes the insert the claim: a restart, an overlapping pass or a second instance inserting the
// same period writes nothing (ON CONFLICT DO NOTHING). Paying it moves the company's due date one
// period on (modules/billing/service.ts), and the next invoice comes when that date draws near.
import { RECURRENCE_MONTHS, recurrenceSchema, renewDueDate } from '@zapdesk/sync';
import type { AppDeps } from '../context.ts';
import { tenant } from '../db/tenant.ts';
import { write } from '../db/write.ts';
import { createPump, type Pump } from './pump.ts';
import { startCronJob, type RunningJob } from './runner.ts';

export const INVOICES_CRON = '*/10 * * * *';
/** An invoice is issued this many days before the due date it charges for. */
export const INVOICE_LEAD_DAYS = 10;
const DAY_MS = 86_400_000;
const BATCH = 500;

/** The detail of an invoice: plan, recurrence and the period paid ("2028-01-31 – 2028-02-29"). */
export function invoiceDetail(planName: string, recurrence: string, dueDate: string): string {
  const rec = recurrenceSchema.catch('MENSAL').parse(recurrence);
  const end = renewDueDate(dueDate, rec, new Date(0));
  return `${planName} · ${rec} · ${dueDate.slice(0, 10)} – ${end.slice(0, 10)}`;
}

/** One pass: issues the missing invoices of the period now due; returns the ids inserted. */
export async function generateInvoices(deps: AppDeps, now: Date = new Date()): Promise<number[]> {
  const horizon = new Date(now.getTime() + INVOICE_LEAD_DAYS * DAY_MS).toISOString();
  // Companies whose period's invoice is missing; the left join keeps the look-up to those.
  const due = await deps.db
    .selectFrom('companies')
    .innerJoin('plans', 'plans.id', 'companies.planId')
    .leftJoin('invoices', (j) => j.onRef('invoices.companyId', '=', 'companies.id').onRef('invoices.dueDate', '=', 'companies.dueDate'))
    .select(['companies.id', 'companies.dueDate', 'companies.recurrence', 'plans.name as planName', 'plans.valueCents'])
    .where('companies.status', '=', 1)
    .where('companies.dueDate', 'is not', null)
    .where('companies.dueDate', '<=', horizon)
    .where('plans.valueCents', '>', 0)
    .where('invoices.id', 'is', null)
    .orderBy('companies.id')
    .limit(BATCH)
    .execute();
  const inserted: number[] = [];
  for (const c of due) {
    const dueDate = c.dueDate!;
    const recurrence = recurrenceSchema.catch('MENSAL').parse(c.recurrence);
    const months = RECURRENCE_MONTHS[recurrence];
    const id = await write(deps, async (tx) => {
      const row = await tenant(tx.db, c.id)
        .insertInto('invoices', { detail: invoiceDetail(c.planName, recurrence, dueDate), valueCents: c.valueCents * months, dueDate, recurrence, status: 'open' })
        .onConflict((oc) => oc.columns(['companyId', 'dueDate']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (row) tx.effects.poke(c.id);
      return row?.id;
    });
    if (id !== undefined) inserted.push(id);
  }
  return inserted;
}

const pumps = new WeakMap<AppDeps['db'], Pump>();

/**
 * A pass now, for a company whose due date, plan or status was just written (sign-up, created,
 * updated, renewed by the super-admin): its invoice shows at once rather than at the next tick, so
 * "Sign now" in a 3-day trial finds something to pay. Single flight per database; passes are
 * idempotent (the unique index), so a wake racing the cron or another instance issues nothing twice.
 */
export function wakeInvoices(deps: AppDeps): void {
  let pump = pumps.get(deps.db);
  if (!pump) {
    pump = createPump({ pass: async () => void (await generateInvoices(deps)), onError: (err) => deps.log.error('job failed', { job: 'invoices', error: String(err) }) });
    pumps.set(deps.db, pump);
  }
  pump.wake();
}

/** Ticks every 10 minutes, and once at start so a company near its due date sees its invoice at once. */
export function startInvoicesJob(deps: AppDeps): RunningJob {
  const first = generateInvoices(deps).catch((err: unknown) => deps.log.error('job failed', { job: 'invoices', error: String(err) }));
  const job = startCronJob({ name: 'invoices', cron: INVOICES_CRON, log: deps.log, run: () => generateInvoices(deps) });
  return {
    name: job.name,
    async stop() {
      await first;
      await job.stop();
    },
  };
}
