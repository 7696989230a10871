// A light month/week calendar (no dependency): a 7-column grid of days for the month, a list of
// the week's days otherwise; each event shows its time and contact with edit and delete icons,
// coloured by status.
import { useTranslation } from 'react-i18next';
import type { ScheduledMessage } from '@zapdesk/sync';
import { IconButton } from '../../ui/Button.tsx';
import { dayKey, monthGrid, weekDays } from './calendar.ts';

export const STATUS_TONE: Record<string, string> = {
  PENDENTE: 'border-l-amber-500 bg-amber-50 dark:bg-amber-950/40',
  ENVIADA: 'border-l-emerald-500 bg-emerald-50 dark:bg-emerald-950/40',
  ERRO: 'border-l-red-500 bg-red-50 dark:bg-red-950/40',
};

type Props = {
  view: 'month' | 'week';
  cursor: Date;
  days: Map<string, ScheduledMessage[]>;
  locale: string;
  onEdit: (s: ScheduledMessage) => void;
  onDelete: (s: ScheduledMessage) => void;
};

export function Calendar({ view, cursor, days, locale, onEdit, onDelete }: Props) {
  const weekdayFmt = new Intl.DateTimeFormat(locale, { weekday: 'short' });
  const today = dayKey(new Date());
  if (view === 'week') {
    const dayFmt = new Intl.DateTimeFormat(locale, { weekday: 'long', day: '2-digit', month: '2-digit' });
    return (
      <ol className="divide-y divide-line">
        {weekDays(cursor).map((d) => (
          <li key={dayKey(d)} className="flex flex-col gap-2 px-3 py-3 sm:flex-row sm:gap-4 sm:px-4">
            <h3 className={`w-40 shrink-0 text-sm font-medium capitalize ${dayKey(d) === today ? 'text-brand' : ''}`}>{dayFmt.format(d)}</h3>
            <ul className="flex min-w-0 flex-1 flex-col gap-1.5">
              {(days.get(dayKey(d)) ?? []).map((s) => (
                <EventChip key={s.id} schedule={s} locale={locale} onEdit={onEdit} onDelete={onDelete} />
              ))}
            </ul>
          </li>
        ))}
      </ol>
    );
  }
  const month = cursor.getMonth();
  const weeks = monthGrid(cursor);
  return (
    <div role="grid" aria-readonly="true" className="grid grid-cols-7 text-sm">
      <div role="row" className="contents">
        {(weeks[0] ?? []).map((d) => (
          <div role="columnheader" key={d.getDay()} className="border-b border-line bg-raised px-1 py-2 text-center text-xs font-semibold text-muted uppercase">
            {weekdayFmt.format(d)}
          </div>
        ))}
      </div>
      {weeks.map((week) => (
        <div role="row" key={dayKey(week[0]!)} className="contents">
          {week.map((d) => {
            const key = dayKey(d);
            const events = days.get(key) ?? [];
            return (
              <div role="gridcell" key={key} data-day={key} className={`min-h-24 min-w-0 border-r border-b border-line p-1 last:border-r-0 ${d.getMonth() === month ? '' : 'bg-raised/50 text-muted'}`}>
                <div className={`mb-1 text-right text-xs ${key === today ? 'font-bold text-brand' : ''}`}>{d.getDate()}</div>
                <ul className="flex flex-col gap-1">
                  {events.map((s) => (
                    <EventChip key={s.id} schedule={s} locale={locale} compact onEdit={onEdit} onDelete={onDelete} />
                  ))}
                </ul>
              </div>
            );
          })}
        </div>
      ))}
    </div>
  );
}

function EventChip({ schedule: s, locale, compact, onEdit, onDelete }: { schedule: ScheduledMessage; locale: string; compact?: boolean; onEdit: (s: ScheduledMessage) => void; onDelete: (s: ScheduledMessage) => void }) {
  const { t } = useTranslation();
  const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' }).format(new Date(s.sendAt));
  const name = s.contact?.name ?? `#${s.contactId}`;
  const status = t(`schedules.status.${s.status}`, { defaultValue: s.status });
  return (
    <li className={`flex min-w-0 gap-1 rounded border-l-4 pl-1.5 ${compact ? 'flex-col' : 'items-center'} ${STATUS_TONE[s.status] ?? 'border-l-line bg-raised'}`} data-testid="schedule-event">
      <button type="button" onClick={() => onEdit(s)} title={`${time} ${name} · ${status}`} className={`min-w-0 flex-1 py-1 text-left text-xs ${compact ? '' : 'truncate'}`}>
        <span className="tabular-nums">{time}</span> <span className={`font-medium ${compact ? 'block truncate' : ''}`}>{name}</span>
        {!compact && <span className="ml-2 text-muted">{s.body}</span>}
        <span className="sr-only"> · {status}</span>
      </button>
      {/* In a month cell the icons need a wide screen; the week view always shows them. */}
      <span className={compact ? 'hidden justify-end lg:flex' : 'flex'}>
        <IconButton icon="edit" className="size-7" label={`${t('common.edit')} ${name} ${time}`} onClick={() => onEdit(s)} />
        <IconButton icon="trash" tone="danger" className="size-7" label={`${t('common.delete')} ${name} ${time}`} onClick={() => onDelete(s)} />
      </span>
    </li>
  );
}
