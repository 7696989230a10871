// Business hours, one row per weekday (00:00 to 00:00 is a closed day): the company's (settings
// Schedules tab), a queue's (Service hours) and a connection's (Business hours) schedule list.
import { useTranslation } from 'react-i18next';
import { DEFAULT_QUEUE_SCHEDULES, type Schedule } from '@zapdesk/sync';
import type { FieldErrors } from './validate.ts';

/** Every weekday, the saved hours first; a day never saved starts from the default hours. */
export function fullWeek(saved: readonly Schedule[] | null | undefined): Schedule[] {
  return DEFAULT_QUEUE_SCHEDULES.map((d) => saved?.find((s) => s.weekdayEn === d.weekdayEn) ?? d);
}

const isClosed = (d: Schedule) => d.startTime === '00:00' && d.endTime === '00:00';

type Props = { days: Schedule[]; onChange: (days: Schedule[]) => void; errors?: FieldErrors; intro?: string };

export function HoursEditor({ days, onChange, errors = {}, intro }: Props) {
  const { t } = useTranslation();
  const set = (index: number, field: 'startTime' | 'endTime', value: string) => onChange(days.map((d, i) => (i === index ? { ...d, [field]: value } : d)));
  return (
    <div>
      {intro && <p className="mb-2 text-sm text-muted">{intro}</p>}
      <div className="divide-y divide-line">
        {days.map((day, i) => {
          const error = errors[`schedules.${i}.endTime`] ?? errors[`schedules.${i}.startTime`];
          const label = t(`settings.weekdays.${day.weekdayEn}`);
          return (
            <div key={day.weekdayEn} className="grid grid-cols-[1fr_auto_auto] items-center gap-2 py-2 sm:grid-cols-[9rem_auto_auto_1fr] sm:gap-3">
              <span className="text-sm font-medium">{label}</span>
              {(['startTime', 'endTime'] as const).map((field) => (
                <input
                  key={field}
                  type="time"
                  aria-label={`${label}: ${t(`settings.${field}`)}`}
                  value={day[field]}
                  onChange={(e) => set(i, field, e.target.value)}
                  className="h-9 rounded-md border border-line bg-surface px-2 text-sm focus:border-brand focus:ring-2 focus:ring-brand/25 focus:outline-none"
                />
              ))}
              <span className={`col-span-3 text-xs sm:col-span-1 ${error ? 'text-danger' : 'text-muted'}`}>{error ?? (isClosed(day) ? t('settings.closed') : '')}</span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
