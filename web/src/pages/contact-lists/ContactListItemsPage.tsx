// /contact-lists/{id}/contacts (spec/03 §2): the list's name, search, back to the lists, import
// (after a confirmation that links the example spreadsheet) and add; a table of the WhatsApp-valid
// icon, name, number and email with edit, and delete for who may (contacts-page:deleteContact).
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { can, contactListItemCreateSchema, translateError, type ContactList, type ContactListItem } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { SaveCancelFooter, useSaveForm } from '../../forms/useSaveForm.tsx';
import { useConfirmDelete } from '../../hooks/use-confirm-delete.ts';
import { useInfiniteList } from '../../hooks/use-infinite-list.ts';
import { currentLanguage } from '../../i18n/index.ts';
import { useUser } from '../../session/SessionProvider.tsx';
import { Button, IconButton } from '../../ui/Button.tsx';
import { ConfirmDialog, Dialog } from '../../ui/Dialog.tsx';
import { TextField } from '../../ui/Field.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { Card, EmptyState, Page } from '../../ui/Page.tsx';
import { SearchInput } from '../../ui/SearchInput.tsx';
import { Table, Td, Th } from '../../ui/Table.tsx';
import { toast } from '../../ui/toast/store.ts';
import { toastError } from '../../ui/toast/toast-error.ts';
import { EXAMPLE_SPREADSHEET } from './strings.ts';
import { uploadListSpreadsheet, type ListImportResult } from './upload.ts';

export function Component() {
  const { t } = useTranslation();
  const me = useUser();
  const listId = Number(useParams().id);
  const [search, setSearch] = useState('');
  const [header, setHeader] = useState<ContactList | null>(null);
  const items = useInfiniteList<ContactListItem>('/contact-list-items', 'contacts', search, { contactListId: listId });
  const [editing, setEditing] = useState<ContactListItem | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const deleting = useConfirmDelete<ContactListItem>(async (item) => {
    await api.delete(`/contact-list-items/${item.id}`);
    items.setItems((rows) => rows.filter((r) => r.id !== item.id));
  });

  useEffect(() => {
    api.get<ContactList>(`/contact-lists/${listId}`).then(setHeader, toastError);
  }, [listId]);

  return (
    <Page
      title={header ? `${t('contact-lists.title')}: ${header.name}` : t('contact-lists.title')}
      actions={
        <>
          <SearchInput label={t('contact-lists.searchItems')} value={search} onChange={setSearch} />
          <Link to="/contact-lists" className="inline-flex h-9 items-center rounded-md border border-line px-3 text-sm hover:bg-raised">
            {t('contact-lists.back')}
          </Link>
          <Button variant="secondary" onClick={() => setImporting(true)}>
            {t('contact-lists.import')}
          </Button>
          <Button icon="plus" onClick={() => setEditing('new')}>
            {t('contact-lists.addItem')}
          </Button>
        </>
      }
    >
      <Card className="overflow-hidden">
        <div className="max-h-[calc(100vh-13rem)] overflow-y-auto" onScroll={items.onScroll}>
          <Table label={t('contact-lists.contacts')} fluid>
            <thead className="sticky top-0 z-10">
              <tr>
                <Th className="w-12 text-center">{t('contact-lists.whatsapp')}</Th>
                <Th>{t('contact-lists.name')}</Th>
                <Th className="hidden sm:table-cell">{t('contact-lists.number')}</Th>
                <Th className="hidden md:table-cell">{t('contact-lists.email')}</Th>
                <Th className="text-right">{t('common.actions')}</Th>
              </tr>
            </thead>
            <tbody>
              {items.items.map((item) => (
                <tr key={item.id} className="hover:bg-raised/60">
                  <Td className="text-center">
                    <ValidIcon valid={item.isWhatsappValid} />
                  </Td>
                  <Td>
                    <span className="block break-words">{item.name}</span>
                    {/* On phones the number folds under the name, as on the contacts page. */}
                    <span className="block text-xs text-muted tabular-nums sm:hidden">{item.number}</span>
                  </Td>
                  <Td className="hidden tabular-nums sm:table-cell">{item.number}</Td>
                  <Td className="hidden md:table-cell">{item.email}</Td>
                  <Td className="text-right whitespace-nowrap">
                    <IconButton icon="edit" label={`${t('common.edit')} ${item.name}`} onClick={() => setEditing(item)} />
                    {can(me, 'contacts-page:deleteContact') && <IconButton icon="trash" tone="danger" label={`${t('common.delete')} ${item.name}`} onClick={() => deleting.ask(item)} />}
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
          {!items.loading && items.items.length === 0 && <EmptyState>{search ? t('common.noResults') : t('contact-lists.itemsEmpty')}</EmptyState>}
          {items.loading && <p className="py-4 text-center text-muted">{t('common.loading')}</p>}
        </div>
      </Card>
      {editing && (
        <ItemModal
          listId={listId}
          item={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            items.reload();
          }}
        />
      )}
      {importing && <ImportListDialog listId={listId} onClose={() => setImporting(false)} onImported={items.reload} />}
      <ConfirmDialog {...deleting.dialog} title={t('contact-lists.deleteItemTitle')} message={t('contact-lists.deleteItemConfirm', { name: deleting.target?.name ?? '' })} />
    </Page>
  );
}

function ValidIcon({ valid }: { valid: boolean | null }) {
  const { t } = useTranslation();
  const label = valid === null ? t('contact-lists.unchecked') : valid ? t('contact-lists.valid') : t('contact-lists.invalid');
  const tone = valid === null ? 'text-muted' : valid ? 'text-brand' : 'text-danger';
  return (
    <span role="img" aria-label={label} title={label} className={`inline-flex ${tone}`} data-valid={String(valid)}>
      <Icon name={valid === null ? 'clock' : valid ? 'check' : 'x'} className="size-4" />
    </span>
  );
}

type ItemProps = { listId: number; item: ContactListItem | null; onClose: () => void; onSaved: () => void };

function ItemModal({ listId, item, onClose, onSaved }: ItemProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState({ name: item?.name ?? '', number: item?.number ?? '', email: item?.email ?? '' });
  const { errors, busy, submit } = useSaveForm<ContactListItem>(onSaved);
  const save = () => {
    const body = { ...values, contactListId: listId };
    return submit(contactListItemCreateSchema, body, () => (item ? api.put<ContactListItem>(`/contact-list-items/${item.id}`, values) : api.post<ContactListItem>('/contact-list-items', body)));
  };
  const field = (key: keyof typeof values) => ({
    name: key,
    value: values[key],
    error: errors[key],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value })),
  });
  return (
    <Dialog open size="sm" title={item ? t('contact-lists.editItem') : t('contact-lists.newItem')} onClose={onClose} onSubmit={() => void save()} footer={<SaveCancelFooter busy={busy} onCancel={onClose} />}>
      <div className="flex flex-col gap-4">
        <TextField label={t('contact-lists.name')} {...field('name')} />
        <TextField label={t('contact-lists.number')} inputMode="tel" {...field('number')} />
        <TextField label={t('contact-lists.email')} type="email" {...field('email')} />
      </div>
    </Dialog>
  );
}

/**
 * Asks first (with the example spreadsheet, spec/03 §2), then opens the file picker at once and
 * uploads what is chosen, showing the counts and each refused row's reason. A picker dismissed leaves
 * the dialog's own file field.
 */
function ImportListDialog({ listId, onClose, onImported }: { listId: number; onClose: () => void; onImported: () => void }) {
  const { t } = useTranslation();
  const [confirmed, setConfirmed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<ListImportResult | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  // Still within the Import click's user activation, so the browser lets the picker open.
  useEffect(() => {
    if (confirmed) fileInput.current?.click();
  }, [confirmed]);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setBusy(true);
    try {
      const answer = await uploadListSpreadsheet(listId, file);
      setResult(answer);
      if (answer.failure) toast.error(t('contact-lists.importFailed', { message: answer.failure.message }));
      else toast.success(t('contact-lists.imported', answer));
      onImported();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  if (!confirmed) {
    return (
      <Dialog
        open
        size="sm"
        title={t('contact-lists.importTitle')}
        onClose={onClose}
        footer={
          <>
            <Button variant="secondary" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button onClick={() => setConfirmed(true)}>{t('contact-lists.import')}</Button>
          </>
        }
      >
        <p>
          <ImportQuestion />
        </p>
      </Dialog>
    );
  }
  return (
    <Dialog open size="lg" title={t('contact-lists.importTitle')} onClose={onClose} footer={<Button onClick={onClose}>{t('common.close')}</Button>}>
      {!result ? (
        <label className="flex flex-col gap-1.5 text-[13px] font-medium">
          {t('contact-lists.importFile')}
          <input
            ref={fileInput}
            type="file"
            accept=".xlsx,.xls,.csv"
            disabled={busy}
            onChange={(e) => void onFile(e.target.files?.[0])}
            className="block w-full text-sm text-muted file:mr-3 file:h-9 file:rounded-md file:border file:border-line file:bg-surface file:px-3 file:text-ink"
          />
          {busy && <span role="status">{t('contact-lists.importing')}</span>}
        </label>
      ) : (
        <div data-testid="list-import-result" className="flex flex-col gap-3">
          <p role="status">{result.failure ? t('contact-lists.importFailed', { message: result.failure.message }) : t('contact-lists.imported', result)}</p>
          {result.issues.length > 0 && (
            <ul className="max-h-72 overflow-y-auto rounded-md border border-line text-sm">
              {result.issues.map((issue) => (
                <li key={issue.row} className="border-b border-line px-3 py-1.5 last:border-0" title={translateError(issue.code, currentLanguage())}>
                  <span className="font-medium">{t('contact-lists.row', { row: issue.row })}: {issue.name || issue.number}</span>
                  <span className={`block text-xs ${issue.kind === 'rejected' ? 'text-danger' : 'text-muted'}`}>{issue.reason}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Dialog>
  );
}

function ImportQuestion() {
  const { t } = useTranslation();
  return (
    <>
      {t('contact-lists.importConfirm')}{' '}
      <a href={EXAMPLE_SPREADSHEET} download className="text-brand underline">
        {t('contact-lists.example')}
      </a>
    </>
  );
}
