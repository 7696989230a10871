// Help videos (super-admin): list, create, edit, delete.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Help } from '@zapdesk/sync';
import { api } from '../../../api/client.ts';
import { useConfirmDelete } from '../../../hooks/use-confirm-delete.ts';
import { useResource } from '../../../hooks/use-resource.ts';
import { Button, IconButton } from '../../../ui/Button.tsx';
import { ConfirmDialog } from '../../../ui/Dialog.tsx';
import { Card, EmptyState } from '../../../ui/Page.tsx';
import { Table, Td, Th } from '../../../ui/Table.tsx';
import { HelpModal } from './HelpModal.tsx';

export default function HelpsTab() {
  const { t } = useTranslation();
  const helps = useResource(() => api.get<Help[]>('/helps'), []);
  const [editing, setEditing] = useState<Help | 'new' | null>(null);
  const deleting = useConfirmDelete<Help>(async (item) => {
    await api.delete(`/helps/${item.id}`);
    helps.set((list) => list?.filter((h) => h.id !== item.id));
  });

  return (
    <div className="flex flex-col gap-3">
      <div className="flex justify-end">
        <Button icon="plus" onClick={() => setEditing('new')}>
          {t('helpAdmin.new')}
        </Button>
      </div>
      <Card className="overflow-hidden">
        <Table label={t('settings.tabs.help')}>
          <thead>
            <tr>
              <Th>{t('helpAdmin.title')}</Th>
              <Th>{t('helpAdmin.video')}</Th>
              <Th>{t('helpAdmin.description')}</Th>
              <Th className="text-right">{t('common.actions')}</Th>
            </tr>
          </thead>
          <tbody>
            {(helps.data ?? []).map((h) => (
              <tr key={h.id} className="hover:bg-raised/60">
                <Td className="font-medium">{h.title}</Td>
                <Td className="font-mono text-xs text-muted">{h.video ?? '—'}</Td>
                <Td className="max-w-md truncate text-muted">{h.description}</Td>
                <Td className="text-right whitespace-nowrap">
                  <IconButton icon="edit" label={`${t('common.edit')} ${h.title}`} onClick={() => setEditing(h)} />
                  <IconButton icon="trash" tone="danger" label={`${t('common.delete')} ${h.title}`} onClick={() => deleting.ask(h)} />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
        {helps.data?.length === 0 && <EmptyState>{t('helpAdmin.empty')}</EmptyState>}
      </Card>
      {editing && (
        <HelpModal
          help={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            helps.set((list) => (list?.some((h) => h.id === saved.id) ? list.map((h) => (h.id === saved.id ? saved : h)) : [...(list ?? []), saved]));
            setEditing(null);
          }}
        />
      )}
      <ConfirmDialog {...deleting.dialog} title={t('helpAdmin.deleteTitle')} message={t('helpAdmin.deleteConfirm', { name: deleting.target?.title ?? '' })} />
    </div>
  );
}
