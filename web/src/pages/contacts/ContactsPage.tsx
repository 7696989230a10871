// /contacts (spec/02 §2.12): searchable list with infinite scroll; import (.xlsx or from the phone),
// add, CSV export (contatos.csv); per row open ticket, edit, delete (contacts-page:deleteContact).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Contact, Ticket } from '@zapdesk/sync';
import { AppError, api } from '../../api/client.ts';
import { useConfirmDelete } from '../../hooks/use-confirm-delete.ts';
import { useInfiniteList } from '../../hooks/use-infinite-list.ts';
import { useUser } from '../../session/SessionProvider.tsx';
import { Button, IconButton } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Menu } from '../../ui/Menu.tsx';
import { Card, EmptyState, Page } from '../../ui/Page.tsx';
import { SearchInput } from '../../ui/SearchInput.tsx';
import { Table, Td, Th } from '../../ui/Table.tsx';
import { toast } from '../../ui/toast/store.ts';
import { toastError } from '../../ui/toast/toast-error.ts';
import { contactRowActions } from './actions.ts';
import { ContactModal } from './ContactModal.tsx';
import { downloadFile } from './download.ts';
import { ImportDialog } from './ImportDialog.tsx';
import './strings.ts';

export function Component() {
  const { t } = useTranslation();
  const me = useUser();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const list = useInfiniteList<Contact>('/contacts', 'contacts', search);
  const [editing, setEditing] = useState<Contact | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const allowed = contactRowActions(me);

  const onSaved = (saved: Contact) => {
    list.setItems((rows) => (rows.some((r) => r.id === saved.id) ? rows.map((r) => (r.id === saved.id ? saved : r)) : [saved, ...rows]));
    setEditing(null);
  };

  const deleting = useConfirmDelete<Contact>(async (c) => {
    await api.delete(`/contacts/${c.id}`);
    list.setItems((rows) => rows.filter((r) => r.id !== c.id));
  });

  // Opening a contact's ticket goes to /tickets/{uuid} (spec/02 §2): a new open ticket of mine, or
  // the one already open for the contact.
  const openTicket = async (contact: Contact) => {
    try {
      const ticket = await api.post<Ticket>('/tickets', { contactId: contact.id, userId: me.id, status: 'open', queueId: me.queues[0]?.id ?? null });
      void navigate(`/tickets/${ticket.uuid}`);
    } catch (err) {
      const uuid = err instanceof AppError ? err.details?.uuid : undefined;
      if (typeof uuid === 'string') void navigate(`/tickets/${uuid}`);
      else toastError(err);
    }
  };

  const importFromPhone = async () => {
    try {
      const { count } = await api.post<{ count: number }>('/contacts/import');
      toast.success(t('contacts.phoneImported', { count }));
      list.reload();
    } catch (err) {
      toastError(err);
    }
  };

  const exportCsv = async () => {
    try {
      await downloadFile('/contacts/export', 'contatos.csv');
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <Page
      title={t('contacts.title')}
      actions={
        <>
          <SearchInput label={t('contacts.search')} value={search} onChange={setSearch} />
          <Menu
            label={t('contacts.import.menu')}
            align="left"
            trigger={t('contacts.import.menu')}
            triggerClassName="inline-flex h-9 items-center gap-2 rounded-md border border-line bg-surface px-3.5 text-sm font-medium hover:bg-raised"
            entries={[
              { key: 'xlsx', label: t('contacts.import.fromFile'), onSelect: () => setImporting(true) },
              { key: 'phone', label: t('contacts.import.fromPhone'), onSelect: () => void importFromPhone() },
            ]}
          />
          <Button variant="secondary" onClick={() => void exportCsv()}>
            {t('contacts.export')}
          </Button>
          <Button icon="plus" onClick={() => setEditing('new')}>
            {t('contacts.add')}
          </Button>
        </>
      }
    >
      <Card className="overflow-hidden">
        <div className="max-h-[calc(100vh-13rem)] overflow-y-auto" onScroll={list.onScroll} data-testid="contacts-scroll">
          <Table label={t('contacts.title')} fluid>
            <thead className="sticky top-0 z-10">
              <tr>
                <Th>{t('contacts.name')}</Th>
                <Th className="hidden sm:table-cell">{t('contacts.number')}</Th>
                <Th className="hidden md:table-cell">{t('contacts.email')}</Th>
                <Th className="text-right">{t('common.actions')}</Th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((c) => (
                <tr key={c.id} className="hover:bg-raised/60">
                  <Td>
                    <span className="flex items-center gap-2.5">
                      <Avatar name={c.name} url={c.profilePicUrl} />
                      <span className="min-w-0">
                        <span className="block font-medium break-words">{c.name}</span>
                        {/* On phones the number folds under the name. */}
                        <span className="block text-xs text-muted sm:hidden">{c.number}</span>
                      </span>
                    </span>
                  </Td>
                  <Td className="hidden tabular-nums sm:table-cell">{c.number}</Td>
                  <Td className="hidden text-muted md:table-cell">{c.email}</Td>
                  <Td className="text-right whitespace-nowrap">
                    {allowed.openTicket && <IconButton icon="tickets" label={`${t('contacts.openTicket')} ${c.name}`} onClick={() => void openTicket(c)} />}
                    {allowed.edit && <IconButton icon="edit" label={`${t('common.edit')} ${c.name}`} onClick={() => setEditing(c)} />}
                    {allowed.delete && <IconButton icon="trash" tone="danger" label={`${t('common.delete')} ${c.name}`} onClick={() => deleting.ask(c)} />}
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
          {!list.loading && list.items.length === 0 && <EmptyState>{search ? t('common.noResults') : t('contacts.empty')}</EmptyState>}
          {list.loading && <p className="py-4 text-center text-muted">{t('common.loading')}</p>}
        </div>
      </Card>
      {editing && <ContactModal contact={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={onSaved} />}
      {importing && <ImportDialog onClose={() => setImporting(false)} onImported={list.reload} />}
      <ConfirmDialog {...deleting.dialog} title={t('contacts.deleteTitle')} message={t('contacts.deleteConfirm', { name: deleting.target?.name ?? '' })} />
    </Page>
  );
}

function Avatar({ name, url }: { name: string; url: string | null }) {
  if (url) return <img src={url} alt="" className="size-8 shrink-0 rounded-full object-cover" />;
  return (
    <span aria-hidden="true" className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-soft text-xs font-semibold text-brand">
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}
