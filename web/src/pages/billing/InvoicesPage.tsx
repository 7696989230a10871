// /financeiro (spec/03 §2): the company's invoices with infinite scroll (detail, value, due date,
// status; expired rows highlighted) and a pay action opening the checkout. The super-admin sees every
// company's, marks one paid by hand and sets the Pix receiving account. A payment (the `payment`
// event) toasts the renewal and reads the list again.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Invoice } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { formatCents, formatDate, invoiceDetailText } from '../../forms/format.ts';
import { useInfiniteList } from '../../hooks/use-infinite-list.ts';
import { useUser } from '../../session/SessionProvider.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Card, EmptyState, Page } from '../../ui/Page.tsx';
import { SearchInput } from '../../ui/SearchInput.tsx';
import { Badge, Table, Td, Th } from '../../ui/Table.tsx';
import { toast } from '../../ui/toast/store.ts';
import { toastError } from '../../ui/toast/toast-error.ts';
import { BillingSettingsCard } from './BillingSettingsCard.tsx';
import { CheckoutWizard } from './CheckoutWizard.tsx';
import { usePaymentEvent } from './use-payment-event.ts';
import './strings.ts';

const TONE = { paid: 'brand', open: 'neutral', expired: 'danger' } as const;

export function Component() {
  const { t, i18n } = useTranslation();
  const user = useUser();
  const [search, setSearch] = useState('');
  const list = useInfiniteList<Invoice>('/invoices/all', 'list', search);
  const [paying, setPaying] = useState<Invoice | null>(null);
  const [marking, setMarking] = useState<Invoice | null>(null);
  const [busy, setBusy] = useState(false);

  usePaymentEvent((event) => {
    toast.success(t('billing.renewed', { date: formatDate(event.dueDate, i18n.language) }));
    list.reload();
  });

  async function markPaid() {
    if (!marking) return;
    setBusy(true);
    try {
      await api.put(`/invoices/${marking.id}`, { status: 'paid' });
      setMarking(null);
      list.reload();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Page
      title={t('billing.invoicesTitle')}
      actions={
        <>
          <SearchInput label={t('billing.search')} value={search} onChange={setSearch} />
          {!user.super && (
            <Link to="/subscription" className="text-sm font-medium text-brand underline">
              {t('billing.subscriptionTitle')}
            </Link>
          )}
        </>
      }
    >
      {user.super && <BillingSettingsCard />}
      <Card className="overflow-hidden">
        <div className="max-h-[calc(100vh-13rem)] overflow-y-auto" onScroll={list.onScroll}>
          <Table label={t('billing.invoicesTitle')} fluid>
            <thead className="sticky top-0 z-10">
              <tr>
                <Th className="hidden sm:table-cell">#</Th>
                {user.super && <Th className="hidden md:table-cell">{t('billing.company')}</Th>}
                <Th className="hidden md:table-cell">{t('billing.detail')}</Th>
                <Th className="text-right">{t('billing.value')}</Th>
                <Th className="hidden sm:table-cell">{t('billing.dueDate')}</Th>
                <Th>{t('billing.status')}</Th>
                <Th className="text-right">{t('common.actions')}</Th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((inv) => (
                <tr key={inv.id} data-status={inv.status} className={inv.status === 'expired' ? 'bg-danger-soft' : 'hover:bg-raised/60'}>
                  <Td className="hidden tabular-nums sm:table-cell">{inv.id}</Td>
                  {user.super && <Td className="hidden md:table-cell">{inv.companyName}</Td>}
                  <Td className="hidden md:table-cell">{invoiceDetailText(inv.detail, i18n.language, (code) => t(`companies.recurrences.${code}`))}</Td>
                  <Td className="text-right whitespace-nowrap tabular-nums">
                    {formatCents(inv.valueCents, i18n.language)}
                    {/* On phones the due date folds under the value. */}
                    <span className="block text-xs text-muted sm:hidden">{formatDate(inv.dueDate, i18n.language)}</span>
                  </Td>
                  <Td className="hidden whitespace-nowrap sm:table-cell">{formatDate(inv.dueDate, i18n.language)}</Td>
                  <Td>
                    <Badge tone={TONE[inv.status]}>{t(`billing.status_${inv.status}`)}</Badge>
                  </Td>
                  <Td className="text-right whitespace-nowrap">
                    {inv.status !== 'paid' && inv.companyId === user.companyId && (
                      <Button icon="billing" onClick={() => setPaying(inv)}>
                        {t('billing.pay')}
                      </Button>
                    )}
                    {inv.status !== 'paid' && user.super && (
                      <Button variant="secondary" icon="check" className="ml-2" onClick={() => setMarking(inv)}>
                        {t('billing.markPaid')}
                      </Button>
                    )}
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
          {!list.loading && list.items.length === 0 && <EmptyState>{search ? t('common.noResults') : t('billing.empty')}</EmptyState>}
          {list.loading && <p className="py-4 text-center text-muted">{t('common.loading')}</p>}
        </div>
      </Card>
      {paying && <CheckoutWizard invoice={paying} onClose={() => setPaying(null)} />}
      <ConfirmDialog
        open={marking !== null}
        title={t('billing.markPaid')}
        message={t('billing.markPaidConfirm', { id: marking?.id ?? '' })}
        confirmLabel={t('billing.markPaid')}
        busy={busy}
        onConfirm={() => void markPaid()}
        onClose={() => setMarking(null)}
      />
    </Page>
  );
}
