// /tags (spec/02 §2.16): search, a table of tag chip, ticket count, edit and delete. The counts come
// from GET /tags (they span every ticket, not only the synced ones); the list reloads when the synced
// tags change, so another user's edit shows here too.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TagWithCount } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { useConfirmDelete } from '../../hooks/use-confirm-delete.ts';
import { useInfiniteList } from '../../hooks/use-infinite-list.ts';
import { useSyncedList } from '../../sync/use-synced.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Card, EmptyState, Page } from '../../ui/Page.tsx';
import { SearchInput } from '../../ui/SearchInput.tsx';
import { Badge, Table, Td, Th } from '../../ui/Table.tsx';
import { TagChip } from './TagChip.tsx';
import { TagModal } from './TagModal.tsx';
import './strings.ts';

export function Component() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const list = useInfiniteList<TagWithCount>('/tags', 'tags', search);
  const synced = useSyncedList('tag');
  const [editing, setEditing] = useState<TagWithCount | 'new' | null>(null);

  // Reload on a change of the synced tags (not on their first read, which the list already made).
  const signature = synced ? JSON.stringify(synced.map((tag) => [tag.id, tag.name, tag.color, tag.kanban])) : null;
  const seen = useRef<string | null>(null);
  const { reload } = list;
  useEffect(() => {
    if (signature === null) return;
    if (seen.current !== null && seen.current !== signature) reload();
    seen.current = signature;
  }, [signature, reload]);

  const deleting = useConfirmDelete<TagWithCount>(async (tag) => {
    await api.delete(`/tags/${tag.id}`);
    list.setItems((rows) => rows.filter((r) => r.id !== tag.id));
  });

  return (
    <Page
      title={t('tags.title')}
      actions={
        <>
          <SearchInput label={t('tags.search')} value={search} onChange={setSearch} />
          <Button icon="plus" onClick={() => setEditing('new')}>
            {t('tags.add')}
          </Button>
        </>
      }
    >
      <Card className="overflow-hidden">
        <div className="max-h-[calc(100vh-13rem)] overflow-y-auto" onScroll={list.onScroll}>
          <Table label={t('tags.title')} fluid>
            <thead className="sticky top-0 z-10">
              <tr>
                <Th>{t('tags.name')}</Th>
                <Th className="text-center">{t('tags.tickets')}</Th>
                <Th className="text-right">{t('common.actions')}</Th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((tag) => (
                <tr key={tag.id} className="hover:bg-raised/60">
                  <Td>
                    <span className="flex flex-wrap items-center gap-2">
                      <TagChip name={tag.name} color={tag.color} />
                      {tag.kanban === 1 && <Badge>{t('tags.kanbanBadge')}</Badge>}
                    </span>
                  </Td>
                  <Td className="text-center tabular-nums">{tag.ticketsCount}</Td>
                  <Td className="text-right whitespace-nowrap">
                    <IconButton icon="edit" label={`${t('common.edit')} ${tag.name}`} onClick={() => setEditing(tag)} />
                    <IconButton icon="trash" tone="danger" label={`${t('common.delete')} ${tag.name}`} onClick={() => deleting.ask(tag)} />
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
          {!list.loading && list.items.length === 0 && <EmptyState>{search ? t('common.noResults') : t('tags.empty')}</EmptyState>}
          {list.loading && <p className="py-4 text-center text-muted">{t('common.loading')}</p>}
        </div>
      </Card>
      {editing && (
        <TagModal
          tag={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            list.reload();
          }}
        />
      )}
      <ConfirmDialog {...deleting.dialog} title={t('tags.deleteTitle')} message={t('tags.deleteConfirm', { name: deleting.target?.name ?? '' })} />
    </Page>
  );
}
