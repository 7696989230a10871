// /webhooks (issue 18; admins): the company's webhooks in a table (name, URL, events, on/off), an
// add/edit dialog, "Send test", the delivery log of each, a new secret and delete. The secret is
// shown once, in a dialog, by the write that made it; the list shows it masked.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Webhook, WebhookDelivery } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { useConfirmDelete } from '../../hooks/use-confirm-delete.ts';
import { useResource } from '../../hooks/use-resource.ts';
import { useRefreshOnPoke } from '../../sync/use-refresh-on-poke.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import { ConfirmDialog, Dialog } from '../../ui/Dialog.tsx';
import { Card, EmptyState, Page } from '../../ui/Page.tsx';
import { Table, Td, Th } from '../../ui/Table.tsx';
import { toast } from '../../ui/toast/store.ts';
import { DeliveryLog } from './DeliveryLog.tsx';
import { WebhookModal } from './WebhookModal.tsx';
import './strings.ts';

export function Component() {
  const { t } = useTranslation();
  const list = useResource(async () => api.get<Webhook[]>('/webhooks'), []);
  const webhooks = list.data ?? [];
  // Another admin's changes show without a reload.
  useRefreshOnPoke(list.refresh);
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const [logOf, setLogOf] = useState<Webhook | null>(null);
  const [revealed, setRevealed] = useState<Webhook | null>(null);
  const deleting = useConfirmDelete<Webhook>(async (w) => {
    await api.delete(`/webhooks/${w.id}`);
    list.reload();
  });

  const sendTest = async (w: Webhook) => {
    await api.post<WebhookDelivery>(`/webhooks/${w.id}/test`, {});
    toast.success(t('webhooks.testQueued'));
  };
  const rotate = async (w: Webhook) => {
    setRevealed(await api.put<Webhook>(`/webhooks/${w.id}`, { rotateSecret: true }));
    list.reload();
  };

  return (
    <Page
      title={t('webhooks.title')}
      subtitle={t('webhooks.subtitle')}
      actions={
        <Button icon="plus" onClick={() => setEditing('new')}>
          {t('webhooks.add')}
        </Button>
      }
    >
      <Card className="overflow-hidden">
        <Table label={t('webhooks.title')} fluid>
          <thead>
            <tr>
              <Th>{t('webhooks.name')}</Th>
              <Th className="hidden sm:table-cell">{t('webhooks.url')}</Th>
              <Th className="hidden md:table-cell">{t('webhooks.events')}</Th>
              <Th className="hidden sm:table-cell">{t('webhooks.enabled')}</Th>
              <Th className="text-right">{t('common.actions')}</Th>
            </tr>
          </thead>
          <tbody>
            {webhooks.map((w) => (
              <tr key={w.id} className="hover:bg-raised/60">
                <Td>
                  <span className="block font-medium break-words">{w.name}</span>
                  {/* On phones the address folds under the name. */}
                  <span className="block max-w-24 truncate text-xs text-muted sm:hidden" title={w.url}>
                    {w.enabled ? w.url : `${t('webhooks.enabled')}: ${t('webhooks.off')}`}
                  </span>
                </Td>
                <Td className="hidden max-w-64 truncate sm:table-cell" title={w.url}>
                  {w.url}
                </Td>
                <Td className="hidden text-sm md:table-cell">{w.events.join(', ')}</Td>
                <Td className="hidden sm:table-cell">{w.enabled ? t('webhooks.on') : t('webhooks.off')}</Td>
                <Td className="text-right whitespace-nowrap">
                  {/* On phones the two worded actions are icons, so the row fits. */}
                  <span className="hidden sm:inline">
                    <Button variant="ghost" onClick={() => void sendTest(w).then(() => setLogOf(w))}>
                      {t('webhooks.sendTest')}
                    </Button>
                    <Button variant="ghost" onClick={() => setLogOf(w)}>
                      {t('webhooks.log')}
                    </Button>
                  </span>
                  <span className="sm:hidden">
                    <IconButton icon="send" label={`${t('webhooks.sendTest')} ${w.name}`} onClick={() => void sendTest(w).then(() => setLogOf(w))} />
                    <IconButton icon="lists" label={`${t('webhooks.log')} ${w.name}`} onClick={() => setLogOf(w)} />
                  </span>
                  <IconButton icon="refresh" label={`${t('webhooks.rotate')} ${w.name}`} onClick={() => void rotate(w)} />
                  <IconButton icon="edit" label={`${t('common.edit')} ${w.name}`} onClick={() => setEditing(w)} />
                  <IconButton icon="trash" tone="danger" label={`${t('common.delete')} ${w.name}`} onClick={() => deleting.ask(w)} />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
        {!list.loading && webhooks.length === 0 && <EmptyState>{t('webhooks.empty')}</EmptyState>}
        {list.loading && <p className="py-4 text-center text-muted">{t('common.loading')}</p>}
      </Card>
      {editing && (
        <WebhookModal
          webhook={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            if (editing === 'new') setRevealed(saved);
            setEditing(null);
            list.reload();
          }}
        />
      )}
      {revealed && (
        <Dialog open title={t('webhooks.secret')} onClose={() => setRevealed(null)}>
          <p className="mb-3 text-sm">{t('webhooks.secretOnce')}</p>
          <code data-testid="webhook-secret" className="block rounded-md bg-raised p-3 text-sm break-all select-all">
            {revealed.secret}
          </code>
        </Dialog>
      )}
      {logOf && <DeliveryLog webhook={logOf} onClose={() => setLogOf(null)} onTest={() => sendTest(logOf)} />}
      <ConfirmDialog {...deleting.dialog} title={t('webhooks.deleteTitle')} message={t('webhooks.deleteConfirm', { name: deleting.target?.name ?? '' })} />
    </Page>
  );
}
