// /files (spec/03 §2): a searchable list of file lists (name, actions) with infinite scroll, an
// add/edit dialog with the list's file options, and a delete confirmation. Paginated REST that reads
// itself again on pokes (useInfiniteList).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileListRecord } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { useConfirmDelete } from '../../hooks/use-confirm-delete.ts';
import { useInfiniteList } from '../../hooks/use-infinite-list.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Card, EmptyState, Page } from '../../ui/Page.tsx';
import { SearchInput } from '../../ui/SearchInput.tsx';
import { Table, Td, Th } from '../../ui/Table.tsx';
import { FileListModal } from './FileListModal.tsx';
import './strings.ts';

export function Component() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const list = useInfiniteList<FileListRecord>('/files', 'files', search);
  const [editing, setEditing] = useState<FileListRecord | 'new' | null>(null);
  const deleting = useConfirmDelete<FileListRecord>(async (f) => {
    await api.delete(`/files/${f.id}`);
    list.setItems((rows) => rows.filter((r) => r.id !== f.id));
  });

  return (
    <Page
      title={t('files.title')}
      actions={
        <>
          <SearchInput label={t('files.search')} value={search} onChange={setSearch} />
          <Button icon="plus" onClick={() => setEditing('new')}>
            {t('files.add')}
          </Button>
        </>
      }
    >
      <Card className="overflow-hidden">
        <div className="max-h-[calc(100vh-13rem)] overflow-y-auto" onScroll={list.onScroll}>
          <Table label={t('files.title')} fluid>
            <thead className="sticky top-0 z-10">
              <tr>
                <Th>{t('files.name')}</Th>
                <Th>{t('files.options')}</Th>
                <Th className="text-right">{t('common.actions')}</Th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((f) => (
                <tr key={f.id} className="hover:bg-raised/60">
                  <Td className="font-medium">{f.name}</Td>
                  <Td className="text-muted">{f.options.map((o) => `${o.name} (${o.path || t('files.noFile')})`).join(', ')}</Td>
                  <Td className="text-right whitespace-nowrap">
                    <IconButton icon="edit" label={`${t('common.edit')} ${f.name}`} onClick={() => setEditing(f)} />
                    <IconButton icon="trash" tone="danger" label={`${t('common.delete')} ${f.name}`} onClick={() => deleting.ask(f)} />
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
          {!list.loading && list.items.length === 0 && <EmptyState>{search ? t('common.noResults') : t('files.empty')}</EmptyState>}
          {list.loading && <p className="py-4 text-center text-muted">{t('common.loading')}</p>}
        </div>
      </Card>
      {editing && (
        <FileListModal
          fileList={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            list.reload();
          }}
        />
      )}
      <ConfirmDialog {...deleting.dialog} title={t('files.deleteTitle')} message={t('files.deleteConfirm', { name: deleting.target?.name ?? '' })} />
    </Page>
  );
}
