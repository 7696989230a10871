// /queues (admins, spec/03 §2): the company's queues from local state; add, edit (with service
// hours when scheduleType is "queue" and the chatbot options tree) and delete.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Queue } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { useConfirmDelete } from '../../hooks/use-confirm-delete.ts';
import { useSyncedList } from '../../sync/use-synced.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Card, EmptyState, Page } from '../../ui/Page.tsx';
import { Splash } from '../../ui/Splash.tsx';
import { Table, Td, Th } from '../../ui/Table.tsx';
import { QueueModal } from './QueueModal.tsx';
import './strings.ts';

/** GET /queue's order: orderQueue first (queues without one last), then id. */
export function sortQueues<Q extends { id: number; orderQueue: number | null }>(queues: readonly Q[]): Q[] {
  return [...queues].sort((a, b) => (a.orderQueue ?? Infinity) - (b.orderQueue ?? Infinity) || a.id - b.id);
}

export function Component() {
  const { t } = useTranslation();
  const queues = useSyncedList('queue');
  const settings = useSyncedList('setting');
  const [editing, setEditing] = useState<Queue | 'new' | null>(null);
  const deleting = useConfirmDelete(async (item: Queue) => {
    await api.delete(`/queue/${item.id}`);
  });
  const byQueue = settings?.find((s) => s.key === 'scheduleType')?.value === 'queue';


  if (!queues) return <Splash inline />;
  const rows = sortQueues(queues);
  return (
    <Page
      title={t('queues.title')}
      subtitle={t('queues.subtitle')}
      actions={
        <Button icon="plus" onClick={() => setEditing('new')}>
          {t('queues.add')}
        </Button>
      }
    >
      <Card className="overflow-hidden">
        <Table label={t('queues.title')} fluid>
          <thead>
            <tr>
              <Th className="hidden w-16 sm:table-cell">{t('queues.id')}</Th>
              <Th>{t('queues.name')}</Th>
              <Th className="hidden sm:table-cell">{t('queues.color')}</Th>
              <Th className="hidden w-20 md:table-cell">{t('queues.orderQueue')}</Th>
              <Th className="hidden lg:table-cell">{t('queues.greeting')}</Th>
              <Th className="text-right">{t('common.actions')}</Th>
            </tr>
          </thead>
          <tbody>
            {rows.map((q) => (
              <tr key={q.id} className="hover:bg-raised/60">
                <Td className="hidden text-muted sm:table-cell">{q.id}</Td>
                <Td>
                  <span className="flex items-center gap-2">
                    <span className="size-3 shrink-0 rounded-full sm:hidden" style={{ backgroundColor: q.color }} aria-hidden="true" />
                    <span className="font-medium">{q.name}</span>
                  </span>
                </Td>
                <Td className="hidden sm:table-cell">
                  <span className="inline-flex items-center gap-2 font-mono text-xs">
                    <span className="h-5 w-12 rounded border border-black/10" style={{ backgroundColor: q.color }} aria-hidden="true" />
                    {q.color}
                  </span>
                </Td>
                <Td className="hidden md:table-cell">{q.orderQueue ?? '—'}</Td>
                <Td className="hidden max-w-xs truncate text-muted lg:table-cell">{q.greetingMessage || '—'}</Td>
                <Td className="text-right whitespace-nowrap">
                  <IconButton icon="edit" label={`${t('common.edit')} ${q.name}`} onClick={() => setEditing(q)} />
                  <IconButton icon="trash" tone="danger" label={`${t('common.delete')} ${q.name}`} onClick={() => deleting.ask(q)} />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
        {rows.length === 0 && <EmptyState>{t('queues.empty')}</EmptyState>}
      </Card>
      {editing && <QueueModal queue={editing === 'new' ? null : editing} byQueue={byQueue} onClose={() => setEditing(null)} onSaved={() => setEditing(null)} />}
      <ConfirmDialog title={t('queues.deleteTitle')} message={t('queues.deleteConfirm', { name: deleting.target?.name ?? '' })} {...deleting.dialog} />
    </Page>
  );
}
