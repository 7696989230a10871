// /users (admins): searchable table with infinite scroll, add/edit modal, delete with confirmation.
import type { User } from '@zapdesk/sync';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { useConfirmDelete } from '../../hooks/use-confirm-delete.ts';
import { useInfiniteList } from '../../hooks/use-infinite-list.ts';
import { useUser } from '../../session/SessionProvider.tsx';
import { useSocketSettled } from '../../sync/SyncProvider.tsx';
import { Button, IconButton } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { SearchInput } from '../../ui/SearchInput.tsx';
import { Card, EmptyState, Page } from '../../ui/Page.tsx';
import { Badge, Table, Td, Th } from '../../ui/Table.tsx';
import { UserModal } from './UserModal.tsx';

export function Component() {
  const { t } = useTranslation();
  const me = useUser();
  const [search, setSearch] = useState('');
  // Presence is in the rows: read once the sync socket has had its try, so the signed-in user (who
  // opened this page first, from a bookmark or right after sign-in) is not shown offline.
  const socketSettled = useSocketSettled();
  const list = useInfiniteList<User>('/users', 'users', search, {}, { after: socketSettled });
  const [editing, setEditing] = useState<User | 'new' | null>(null);
  const deleting = useConfirmDelete<User>(async (item) => {
    await api.delete(`/users/${item.id}`);
    list.setItems((rows) => rows.filter((r) => r.id !== item.id));
  });

  const onSaved = (saved: User) => {
    list.setItems((rows) => (rows.some((r) => r.id === saved.id) ? rows.map((r) => (r.id === saved.id ? saved : r)) : [saved, ...rows]));
    setEditing(null);
  };

  return (
    <Page
      title={t('users.title')}
      actions={
        <>
          <SearchInput label={t('users.search')} value={search} onChange={setSearch} />
          <Button icon="plus" onClick={() => setEditing('new')}>
            {t('users.add')}
          </Button>
        </>
      }
    >
      <Card className="overflow-hidden">
        <div className="max-h-[calc(100vh-13rem)] overflow-y-auto" onScroll={list.onScroll} data-testid="users-scroll">
          <Table label={t('users.title')} fluid>
            <thead className="sticky top-0 z-10">
              <tr>
                <Th>{t('users.name')}</Th>
                <Th className="hidden md:table-cell">{t('users.email')}</Th>
                <Th className="hidden sm:table-cell">{t('users.profile')}</Th>
                <Th className="hidden sm:table-cell">{t('users.queues')}</Th>
                <Th className="text-right">{t('common.actions')}</Th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((u) => (
                <tr key={u.id} className="hover:bg-raised/60">
                  <Td>
                    <span className="flex items-center gap-2.5">
                      <span className={`size-2 shrink-0 rounded-full ${u.online ? 'bg-emerald-500' : 'bg-line'}`} title={u.online ? t('users.online') : t('users.offline')} />
                      <span className="min-w-0">
                        <span className="block font-medium">
                          {u.name}
                          {/* On phones the profile column folds into the name. */}
                          {u.profile === 'admin' && <span className="ml-1.5 text-xs font-normal text-brand sm:hidden">{t('users.profiles.admin')}</span>}
                        </span>
                        <span className="block max-w-[12rem] truncate text-xs text-muted md:hidden">{u.email}</span>
                      </span>
                    </span>
                  </Td>
                  <Td className="hidden text-muted md:table-cell">{u.email}</Td>
                  <Td className="hidden sm:table-cell">
                    <Badge tone={u.profile === 'admin' ? 'brand' : 'neutral'}>{t(`users.profiles.${u.profile}`, { defaultValue: u.profile })}</Badge>
                  </Td>
                  <Td className="hidden sm:table-cell">
                    <span className="flex flex-wrap gap-1">
                      {u.queues.length === 0 && <span className="text-muted">—</span>}
                      {u.queues.map((q) => (
                        <span key={q.id} className="inline-flex items-center gap-1.5 rounded-full border border-line px-2 py-0.5 text-xs">
                          <span className="size-2 rounded-full" style={{ backgroundColor: q.color }} aria-hidden="true" />
                          {q.name}
                        </span>
                      ))}
                    </span>
                  </Td>
                  <Td className="text-right whitespace-nowrap">
                    <IconButton icon="edit" label={`${t('common.edit')} ${u.name}`} onClick={() => setEditing(u)} />
                    {u.id !== me.id && <IconButton icon="trash" tone="danger" label={`${t('common.delete')} ${u.name}`} onClick={() => deleting.ask(u)} />}
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
          {!list.loading && list.items.length === 0 && <EmptyState>{search ? t('common.noResults') : t('users.empty')}</EmptyState>}
          {list.loading && <p className="py-4 text-center text-muted">{t('common.loading')}</p>}
        </div>
      </Card>
      {editing && <UserModal open user={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={onSaved} />}
      <ConfirmDialog {...deleting.dialog} title={t('users.deleteTitle')} message={t('users.deleteConfirm', { name: deleting.target?.name ?? '' })} />
    </Page>
  );
}
