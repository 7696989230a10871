// The company's business hours (settings Schedules tab), used when scheduleType is "company": one
// row per weekday; 00:00 to 00:00 is a closed day.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { companySchedulesSchema, DEFAULT_QUEUE_SCHEDULES, type Company, type Schedule } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { validate, type FieldErrors } from '../../forms/validate.ts';
import { useResource } from '../../hooks/use-resource.ts';
import { useUser } from '../../session/SessionProvider.tsx';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Page.tsx';
import { Splash } from '../../ui/Splash.tsx';
import { toast } from '../../ui/toast/store.ts';
import { toastError } from '../../ui/toast/toast-error.ts';

/** Every weekday, the saved hours first; a day never saved starts from the usual default hours. */
function fullWeek(saved: Schedule[] | undefined): Schedule[] {
  return DEFAULT_QUEUE_SCHEDULES.map((d) => saved?.find((s) => s.weekdayEn === d.weekdayEn) ?? d);
}

const isClosed = (d: Schedule) => d.startTime === '00:00' && d.endTime === '00:00';

export function SchedulesTab() {
  const { t } = useTranslation();
  const { companyId } = useUser();
  const company = useResource(() => api.get<Company>(`/companies/${companyId}`), [companyId]);
  const [days, setDays] = useState<Schedule[]>(() => fullWeek(undefined));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (company.data) setDays(fullWeek(company.data.schedules));
  }, [company.data]);

  if (!company.data) return <Splash inline />;

  const set = (index: number, field: 'startTime' | 'endTime', value: string) => setDays((list) => list.map((d, i) => (i === index ? { ...d, [field]: value } : d)));

  const save = async () => {
    const parsed = validate(companySchedulesSchema, { schedules: days }, t);
    setErrors(parsed.ok ? {} : parsed.errors);
    if (!parsed.ok) return;
    setBusy(true);
    try {
      await api.put(`/companies/${companyId}/schedules`, { schedules: days });
      toast.success(t('common.saved'));
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className="p-4 sm:p-5">
      <p className="mb-4 text-muted">{t('settings.schedulesIntro')}</p>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <div className="divide-y divide-line">
          {days.map((day, i) => {
            const error = errors[`schedules.${i}.endTime`] ?? errors[`schedules.${i}.startTime`];
            return (
              <div key={day.weekdayEn} className="grid grid-cols-[1fr_auto_auto] items-center gap-3 py-2.5 sm:grid-cols-[12rem_auto_auto_1fr]">
                <span className="font-medium">{t(`settings.weekdays.${day.weekdayEn}`)}</span>
                {(['startTime', 'endTime'] as const).map((field) => (
                  <input
                    key={field}
                    type="time"
                    aria-label={`${t(`settings.weekdays.${day.weekdayEn}`)}: ${t(`settings.${field}`)}`}
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
        <div className="mt-4 flex justify-end">
          <Button type="submit" busy={busy}>
            {t('common.save')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
