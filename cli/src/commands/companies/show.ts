// How a company reads on the terminal: the due date with the days left, as the companies page colours it.
import { daysToDue, type Company } from '@zapdesk/sync';
import { column, type Shown } from '../../present.ts';

/** "2026-12-01 (3d left)": days counted as the web counts them (calendar days, UTC). */
export function dueText(dueDate: string | null, now = new Date()): string {
  const days = daysToDue(dueDate, now);
  if (!dueDate || days === null) return '-';
  const when = days < 0 ? `${-days}d overdue` : days === 0 ? 'due today' : `${days}d left`;
  return `${dueDate.slice(0, 10)} (${when})`;
}

export const companyColumns = [
  column<Company>('id', (c) => c.id),
  column<Company>('name', (c) => c.name),
  column<Company>('email', (c) => c.email),
  column<Company>('plan', (c) => c.plan?.name),
  column<Company>('status', (c) => (c.status ? 'active' : 'inactive')),
  column<Company>('due', (c) => dueText(c.dueDate)),
  column<Company>('recurrence', (c) => c.recurrence),
];

export function showCompany(c: Company): Shown {
  const address = [c.addressStreet, c.addressNumber, c.addressDistrict, c.addressCity, c.addressState, c.addressZip].filter(Boolean).join(', ');
  return {
    kind: 'record',
    title: `Company ${c.id}: ${c.name}`,
    fields: [
      ['email', c.email],
      ['phone', c.phone],
      ['plan', c.plan ? `${c.plan.name} (id ${c.plan.id})` : null],
      ['status', c.status ? 'active' : 'inactive'],
      ['due date', dueText(c.dueDate)],
      ['recurrence', c.recurrence],
      ['campaigns', c.campaignsEnabled],
      ['document', c.document],
      ['address', address],
      ['created', c.createdAt],
    ],
  };
}
