// The super-admin's Pix receiving account (GET/PUT /billing/settings): the key, merchant name and
// city every BR Code of the platform carries.
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { BillingSettings } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { TextField } from '../../ui/Field.tsx';
import { Card } from '../../ui/Page.tsx';
import { toast } from '../../ui/toast/store.ts';
import { toastError } from '../../ui/toast/toast-error.ts';
import './strings.ts';

type Answer = BillingSettings & { configured: boolean };

export function BillingSettingsCard() {
  const { t } = useTranslation();
  const [form, setForm] = useState<Answer | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    api.get<Answer>('/billing/settings').then(setForm, toastError);
  }, []);
  if (!form) return null;

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!form) return;
    setBusy(true);
    try {
      setForm(await api.put<Answer>('/billing/settings', { pixKey: form.pixKey, merchantName: form.merchantName, merchantCity: form.merchantCity }));
      toast.success(t('common.saved'));
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  }
  const set = (key: keyof BillingSettings) => (e: { target: { value: string } }) => setForm((f) => (f ? { ...f, [key]: e.target.value } : f));

  return (
    <Card className="mb-4 p-4">
      <form onSubmit={(e) => void save(e)} className="grid items-end gap-3 sm:grid-cols-4" aria-label={t('billing.settingsTitle')}>
        <h2 className="font-semibold sm:col-span-4">{t('billing.settingsTitle')}</h2>
        {!form.configured && <p className="text-sm text-danger sm:col-span-4">{t('billing.notConfigured')}</p>}
        <TextField label={t('billing.pixKey')} value={form.pixKey} onChange={set('pixKey')} maxLength={77} />
        <TextField label={t('billing.merchantName')} value={form.merchantName} onChange={set('merchantName')} />
        <TextField label={t('billing.merchantCity')} value={form.merchantCity} onChange={set('merchantCity')} />
        <Button type="submit" busy={busy} disabled={busy}>
          {t('common.save')}
        </Button>
      </form>
    </Card>
  );
}
