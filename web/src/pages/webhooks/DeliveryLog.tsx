// A webhook's delivery log (GET /webhooks/{id}/deliveries): the latest deliveries, newest first,
// with their state, attempts, the receiver's HTTP status and how long it took. Read again on
// "Refresh", after "Send test" and every few seconds while one is still under way.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { Webhook, WebhookDelivery } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { useResource } from '../../hooks/use-resource.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { EmptyState } from '../../ui/Page.tsx';
import { Table, Td, Th } from '../../ui/Table.tsx';
import './strings.ts';

const TONE: Record<WebhookDelivery['state'], string> = { queued: 'text-muted', running: 'text-muted', done: 'text-brand', failed: 'text-danger' };

export function DeliveryLog({ webhook, onClose, onTest }: { webhook: Webhook; onClose: () => void; onTest: () => Promise<void> }) {
  const { t, i18n } = useTranslation();
  const log = useResource(async () => (await api.get<{ deliveries: WebhookDelivery[] }>(`/webhooks/${webhook.id}/deliveries?limit=50`)).deliveries, [webhook.id]);
  const pending = (log.data ?? []).some((d) => d.state === 'queued' || d.state === 'running');
  // Something is still on its way: look again shortly (retries wait for their backoff).
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(log.refresh, 1_000);
    return () => clearTimeout(timer);
  }, [pending, log.data, log.refresh]);
  const when = (d: WebhookDelivery) => new Date(d.deliveredAt ?? d.nextAttemptAt ?? d.createdAt).toLocaleString(i18n.language);

  return (
    <Dialog
      open
      size="lg"
      title={t('webhooks.logOf', { name: webhook.name })}
      onClose={onClose}
      footer={
        <div className="flex gap-2">
          <Button variant="secondary" icon="refresh" onClick={log.refresh}>
            {t('webhooks.refresh')}
          </Button>
          <Button
            onClick={() =>
              void onTest().then(() => {
                log.refresh();
              })
            }
          >
            {t('webhooks.sendTest')}
          </Button>
        </div>
      }
    >
      <Table label={t('webhooks.log')} fluid>
        <thead>
          <tr>
            <Th>{t('webhooks.event')}</Th>
            <Th>{t('webhooks.state')}</Th>
            <Th className="hidden sm:table-cell">{t('webhooks.attempts')}</Th>
            <Th className="hidden sm:table-cell">{t('webhooks.status')}</Th>
            <Th className="hidden md:table-cell">{t('webhooks.duration')}</Th>
            <Th>{t('webhooks.when')}</Th>
            <Th className="hidden md:table-cell">{t('webhooks.error')}</Th>
          </tr>
        </thead>
        <tbody>
          {(log.data ?? []).map((d) => (
            <tr key={d.id} data-testid="webhook-delivery">
              <Td>
                <code>{d.event}</code>
              </Td>
              <Td className={TONE[d.state]}>{t(`webhooks.state_${d.state}`)}</Td>
              <Td className="hidden sm:table-cell">{d.attempts}</Td>
              <Td className="hidden sm:table-cell">{d.responseStatus ?? '—'}</Td>
              <Td className="hidden whitespace-nowrap md:table-cell">{d.durationMs === null ? '—' : `${d.durationMs} ms`}</Td>
              <Td className="whitespace-nowrap">{when(d)}</Td>
              <Td className="hidden text-sm text-muted md:table-cell">{d.error ?? ''}</Td>
            </tr>
          ))}
        </tbody>
      </Table>
      {!log.loading && (log.data ?? []).length === 0 && <EmptyState>{t('webhooks.noDeliveries')}</EmptyState>}
    </Dialog>
  );
}
