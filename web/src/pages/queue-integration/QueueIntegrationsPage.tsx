// /queue-integration (spec/03 §2 "Queue integrations"; plan flag useIntegrations, admins): a
// searchable list with the type logo, id and name, infinite scroll, an add/edit dialog with each
// type's fields and a delete confirmation. Paginated REST that reads itself again on pokes
// (useInfiniteList). The route guard sends a company without the feature to its home with the toast.
// Each row also says where the integration is used (the queues and connections that chose it).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { QueueIntegration } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { useConfirmDelete } from '../../hooks/use-confirm-delete.ts';
import { useInfiniteList } from '../../hooks/use-infinite-list.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Card, EmptyState, Page } from '../../ui/Page.tsx';
import { SearchInput } from '../../ui/SearchInput.tsx';
import { Table, Td, Th } from '../../ui/Table.tsx';
import { IntegrationLogo, integrationLabel } from './IntegrationLogo.tsx';
import { IntegrationModal } from './IntegrationModal.tsx';
import { useLinkedPlaces } from './AutomationPickers.tsx';
import './strings.ts';

export function Component() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const list = useInfiniteList<QueueIntegration>('/queueIntegration/', 'queueIntegrations', search);
  const placesOf = useLinkedPlaces('integrationId');
  const [editing, setEditing] = useState<QueueIntegration | 'new' | null>(null);
  const deleting = useConfirmDelete<QueueIntegration>(async (i) => {
    await api.delete(`/queueIntegration/${i.id}`);
    list.setItems((rows) => rows.filter((r) => r.id !== i.id));
  });

  return (
    <Page
      title={t('queue-integration.title')}
      actions={
        <>
          <SearchInput label={t('queue-integration.search')} value={search} onChange={setSearch} />
          <Button icon="plus" onClick={() => setEditing('new')}>
            {t('queue-integration.add')}
          </Button>
        </>
      }
    >
      <Card className="overflow-hidden">
        <div className="max-h-[calc(100vh-13rem)] overflow-y-auto" onScroll={list.onScroll}>
          <Table label={t('queue-integration.title')} fluid>
            <thead className="sticky top-0 z-10">
              <tr>
                <Th className="w-14">{t('queue-integration.type')}</Th>
                <Th className="w-16">{t('queue-integration.id')}</Th>
                <Th>{t('queue-integration.name')}</Th>
                <Th className="hidden sm:table-cell">{t('queue-integration.usedIn')}</Th>
                <Th className="text-right">{t('common.actions')}</Th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((i) => (
                <tr key={i.id} className="hover:bg-raised/60">
                  <Td title={integrationLabel(i.type)}>
                    <IntegrationLogo type={i.type} />
                  </Td>
                  <Td className="text-muted">{i.id}</Td>
                  <Td className="font-medium">{i.name}</Td>
                  <Td className="hidden sm:table-cell">{placesOf(i.id).join(', ') || <span className="text-muted">{t('queue-integration.notInUse')}</span>}</Td>
                  <Td className="text-right whitespace-nowrap">
                    <IconButton icon="edit" label={`${t('common.edit')} ${i.name}`} onClick={() => setEditing(i)} />
                    <IconButton icon="trash" tone="danger" label={`${t('common.delete')} ${i.name}`} onClick={() => deleting.ask(i)} />
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
          {!list.loading && list.items.length === 0 && <EmptyState>{search ? t('common.noResults') : t('queue-integration.empty')}</EmptyState>}
          {list.loading && <p className="py-4 text-center text-muted">{t('common.loading')}</p>}
        </div>
      </Card>
      {editing && (
        <IntegrationModal
          integration={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            list.reload();
          }}
        />
      )}
      <ConfirmDialog {...deleting.dialog} title={t('queue-integration.deleteTitle')} message={t('queue-integration.deleteConfirm', { name: deleting.target?.name ?? '' })} />
    </Page>
  );
}
