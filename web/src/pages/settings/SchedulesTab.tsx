// The company's business hours (settings Schedules tab), used when scheduleType is "company": one
// row per weekday; 00:00 to 00:00 is a closed day.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { companySchedulesSchema, type Company, type Schedule } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { fullWeek, HoursEditor } from '../../forms/HoursEditor.tsx';
import { validate, type FieldErrors } from '../../forms/validate.ts';
import { useResource } from '../../hooks/use-resource.ts';
import { useUser } from '../../session/SessionProvider.tsx';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Page.tsx';
import { Splash } from '../../ui/Splash.tsx';
import { toast } from '../../ui/toast/store.ts';
import { toastError } from '../../ui/toast/toast-error.ts';

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
        <HoursEditor days={days} errors={errors} onChange={setDays} />
        <div className="mt-4 flex justify-end">
          <Button type="submit" busy={busy}>
            {t('common.save')}
          </Button>
        </div>
      </form>
    </Card>
  );
}
