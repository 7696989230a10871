// /contact-lists (spec/03 §2): search, add; a table of name and contactsCount with the actions
// download example spreadsheet, open list, edit and delete. The list is paginated REST that reads
// itself again on pokes (useInfiniteList), so another admin's change shows here too.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { contactListCreateSchema, type ContactList } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { SaveCancelFooter, useSaveForm } from '../../forms/useSaveForm.tsx';
import { useConfirmDelete } from '../../hooks/use-confirm-delete.ts';
import { useInfiniteList } from '../../hooks/use-infinite-list.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import { ConfirmDialog, Dialog } from '../../ui/Dialog.tsx';
import { TextField } from '../../ui/Field.tsx';
import { Card, EmptyState, Page } from '../../ui/Page.tsx';
import { SearchInput } from '../../ui/SearchInput.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { Table, Td, Th } from '../../ui/Table.tsx';
import { EXAMPLE_SPREADSHEET } from './strings.ts';

export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const list = useInfiniteList<ContactList>('/contact-lists', 'records', search);
  const [editing, setEditing] = useState<ContactList | 'new' | null>(null);
  const deleting = useConfirmDelete<ContactList>(async (l) => {
    await api.delete(`/contact-lists/${l.id}`);
    list.setItems((rows) => rows.filter((r) => r.id !== l.id));
  });

  return (
    <Page
      title={t('contact-lists.title')}
      actions={
        <>
          <SearchInput label={t('contact-lists.search')} value={search} onChange={setSearch} />
          <Button icon="plus" onClick={() => setEditing('new')}>
            {t('contact-lists.add')}
          </Button>
        </>
      }
    >
      <Card className="overflow-hidden">
        <div className="max-h-[calc(100vh-13rem)] overflow-y-auto" onScroll={list.onScroll}>
          <Table label={t('contact-lists.title')} fluid>
            <thead className="sticky top-0 z-10">
              <tr>
                <Th>{t('contact-lists.name')}</Th>
                <Th className="hidden text-center sm:table-cell">{t('contact-lists.contacts')}</Th>
                <Th className="text-right">{t('common.actions')}</Th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((l) => (
                <tr key={l.id} className="hover:bg-raised/60">
                  <Td>
                    <Link to={`/contact-lists/${l.id}/contacts`} className="font-medium hover:underline">
                      {l.name}
                    </Link>
                    {/* On phones the count folds under the name. */}
                    <span className="block text-xs text-muted tabular-nums sm:hidden">
                      {t('contact-lists.contacts')}: {l.contactsCount}
                    </span>
                  </Td>
                  <Td className="hidden text-center tabular-nums sm:table-cell">{l.contactsCount}</Td>
                  <Td className="text-right whitespace-nowrap">
                    <ExampleLink />
                    <IconButton icon="lists" label={`${t('contact-lists.open')} ${l.name}`} onClick={() => void navigate(`/contact-lists/${l.id}/contacts`)} />
                    <IconButton icon="edit" label={`${t('common.edit')} ${l.name}`} onClick={() => setEditing(l)} />
                    <IconButton icon="trash" tone="danger" label={`${t('common.delete')} ${l.name}`} onClick={() => deleting.ask(l)} />
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
          {!list.loading && list.items.length === 0 && <EmptyState>{search ? t('common.noResults') : t('contact-lists.empty')}</EmptyState>}
          {list.loading && <p className="py-4 text-center text-muted">{t('common.loading')}</p>}
        </div>
      </Card>
      {editing && (
        <ContactListModal
          list={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            list.reload();
          }}
        />
      )}
      <ConfirmDialog {...deleting.dialog} title={t('contact-lists.deleteTitle')} message={t('contact-lists.deleteConfirm', { name: deleting.target?.name ?? '' })} />
    </Page>
  );
}

function ContactListModal({ list, onClose, onSaved }: { list: ContactList | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(list?.name ?? '');
  const { errors, busy, submit } = useSaveForm<ContactList>(onSaved);
  const save = () => submit(contactListCreateSchema, { name }, () => (list ? api.put<ContactList>(`/contact-lists/${list.id}`, { name }) : api.post<ContactList>('/contact-lists', { name })));
  return (
    <Dialog open size="sm" title={list ? t('contact-lists.edit') : t('contact-lists.new')} onClose={onClose} onSubmit={() => void save()} footer={<SaveCancelFooter busy={busy} onCancel={onClose} />}>
      <TextField label={t('contact-lists.name')} name="name" value={name} error={errors.name} onChange={(e) => setName(e.target.value)} />
    </Dialog>
  );
}

/** The example spreadsheet, a download link that looks like the row's icon buttons. */
export function ExampleLink() {
  const { t } = useTranslation();
  return (
    <a
      href={EXAMPLE_SPREADSHEET}
      download
      aria-label={t('contact-lists.example')}
      title={t('contact-lists.example')}
      className="inline-flex size-9 shrink-0 items-center justify-center rounded-md align-middle text-muted transition-colors hover:bg-raised hover:text-ink"
    >
      <Icon name="download" className="size-[18px]" />
    </a>
  );
}
