// /announcements (super-admin, spec/02 §2.19): every announcement from local state (the super-admin's
// view holds them all), searched locally, created, edited and deleted.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Announcement } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { useConfirmDelete } from '../../hooks/use-confirm-delete.ts';
import { formatDate } from '../../forms/format.ts';
import { useSyncedList } from '../../sync/use-synced.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { SearchInput } from '../../ui/SearchInput.tsx';
import { Card, EmptyState, Page } from '../../ui/Page.tsx';
import { Splash } from '../../ui/Splash.tsx';
import { Badge, Table, Td, Th } from '../../ui/Table.tsx';
import { AnnouncementModal } from './AnnouncementModal.tsx';
import { priorityDot, sortAnnouncements } from './priority.ts';
import './strings.ts';

export function Component() {
  const { t, i18n } = useTranslation();
  const rows = useSyncedList('announcement');
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Announcement | 'new' | null>(null);
  const deleting = useConfirmDelete(async (item: Announcement) => {
    await api.delete(`/announcements/${item.id}`);
  });


  if (!rows) return <Splash inline />;
  const needle = search.trim().toLowerCase();
  const shown = sortAnnouncements(rows.filter((a) => !needle || a.title.toLowerCase().includes(needle) || a.text.toLowerCase().includes(needle)));

  return (
    <Page
      title={t('announcements.title')}
      subtitle={t('announcements.subtitle')}
      actions={
        <>
          <SearchInput label={t('announcements.search')} value={search} onChange={setSearch} />
          <Button icon="plus" onClick={() => setEditing('new')}>
            {t('announcements.add')}
          </Button>
        </>
      }
    >
      <Card className="overflow-hidden">
        <Table label={t('announcements.title')} fluid>
          <thead>
            <tr>
              <Th>{t('announcements.titleField')}</Th>
              <Th className="hidden sm:table-cell">{t('announcements.priority')}</Th>
              <Th className="hidden md:table-cell">{t('announcements.media')}</Th>
              <Th className="hidden sm:table-cell">{t('announcements.status')}</Th>
              <Th className="hidden lg:table-cell">{t('announcements.createdAt')}</Th>
              <Th className="text-right">{t('common.actions')}</Th>
            </tr>
          </thead>
          <tbody>
            {shown.map((a) => (
              <tr key={a.id} className="hover:bg-raised/60">
                <Td>
                  <span className="flex items-start gap-2">
                    <span className={`mt-1.5 size-2.5 shrink-0 rounded-full sm:hidden ${priorityDot(a.priority)}`} aria-hidden="true" />
                    <span className="min-w-0">
                      <span className="block font-medium">{a.title}</span>
                      <span className="line-clamp-1 block max-w-md text-xs text-muted">{a.text}</span>
                    </span>
                  </span>
                </Td>
                <Td className="hidden sm:table-cell">
                  <span className="inline-flex items-center gap-2">
                    <span className={`size-2.5 rounded-full ${priorityDot(a.priority)}`} aria-hidden="true" />
                    {t(`announcements.priorities.${a.priority}`, { defaultValue: String(a.priority) })}
                  </span>
                </Td>
                <Td className="hidden max-w-40 truncate text-muted md:table-cell">{a.mediaName ?? '—'}</Td>
                <Td className="hidden sm:table-cell">
                  <Badge tone={a.status ? 'brand' : 'neutral'}>{a.status ? t('announcements.active') : t('announcements.inactive')}</Badge>
                </Td>
                <Td className="hidden text-muted lg:table-cell">{formatDate(a.createdAt, i18n.language)}</Td>
                <Td className="text-right whitespace-nowrap">
                  <IconButton icon="edit" label={`${t('common.edit')} ${a.title}`} onClick={() => setEditing(a)} />
                  <IconButton icon="trash" tone="danger" label={`${t('common.delete')} ${a.title}`} onClick={() => deleting.ask(a)} />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
        {shown.length === 0 && <EmptyState>{search ? t('common.noResults') : t('announcements.empty')}</EmptyState>}
      </Card>
      {editing && <AnnouncementModal announcement={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog title={t('announcements.deleteTitle')} message={t('announcements.deleteConfirm', { title: deleting.target?.title ?? '' })} {...deleting.dialog} />
    </Page>
  );
}
