// /subscription (spec/03 §2): the trial days left (from the company's trialExpiration, while it is
// still in its trial: layout/subscription-banner.ts `trialOf`), the charge
// e-mail, the paid-until date (the synced company row: it moves live when a payment lands) and a
// sign-now button that opens the checkout of the oldest unpaid invoice.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Invoice, InvoicesPage } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { formatDate } from '../../forms/format.ts';
import { trialOf } from '../../layout/subscription-banner.ts';
import { useSyncedList } from '../../sync/use-synced.ts';
import { Button } from '../../ui/Button.tsx';
import { Card, Page } from '../../ui/Page.tsx';
import { toast } from '../../ui/toast/store.ts';
import { toastError } from '../../ui/toast/toast-error.ts';
import { CheckoutWizard } from './CheckoutWizard.tsx';
import './strings.ts';

export function Component() {
  const { t, i18n } = useTranslation();
  const company = useSyncedList('company')?.[0];
  const [paying, setPaying] = useState<Invoice | null>(null);
  const [busy, setBusy] = useState(false);
  const trial = company ? trialOf(company) : null;

  async function signNow() {
    setBusy(true);
    try {
      const [expired, open] = await Promise.all(
        (['expired', 'open'] as const).map((status) => api.get<InvoicesPage>('/invoices/all', { query: { status, pageNumber: 1 } })),
      );
      const unpaid = [...(expired?.list ?? []), ...(open?.list ?? [])].filter((i) => i.companyId === company?.id).sort((a, b) => a.dueDate.localeCompare(b.dueDate));
      if (unpaid[0]) setPaying(unpaid[0]);
      else toast.info(t('billing.noOpenInvoice'));
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Page title={t('billing.subscriptionTitle')}>
      <Card className="max-w-xl space-y-3 p-5">
        {trial && <p className="font-medium">{trial.state === 'active' ? t('billing.trialLeft', { count: trial.days }) : t('billing.trialOver')}</p>}
        <dl className="grid grid-cols-2 gap-2 text-sm">
          <dt className="text-muted">{t('billing.plan')}</dt>
          <dd>{company?.plan?.name ?? '—'}</dd>
          <dt className="text-muted">{t('billing.recurrence')}</dt>
          <dd data-testid="recurrence">{company ? t(`companies.recurrences.${company.recurrence}`, { defaultValue: company.recurrence }) : '—'}</dd>
          <dt className="text-muted">{t('billing.chargeEmail')}</dt>
          <dd>{company?.email ?? '—'}</dd>
          <dt className="text-muted">{t('billing.paidUntil')}</dt>
          <dd data-testid="paid-until">{company?.dueDate ? formatDate(company.dueDate, i18n.language) : '—'}</dd>
        </dl>
        <Button icon="billing" busy={busy} disabled={busy || !company} onClick={() => void signNow()}>
          {t('billing.signNow')}
        </Button>
      </Card>
      {paying && <CheckoutWizard invoice={paying} onClose={() => setPaying(null)} />}
    </Page>
  );
}
