// Companies (super-admin): rows coloured by days to the due date (spec/01 §4), renew, edit, delete.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Company } from '@zapdesk/sync';
import { api } from '../../../api/client.ts';
import { useConfirmDelete } from '../../../hooks/use-confirm-delete.ts';
import { daysToDue, dueDateTone, formatDate, type DueTone } from '../../../forms/format.ts';
import { useInfiniteList } from '../../../hooks/use-infinite-list.ts';
import { Button, IconButton } from '../../../ui/Button.tsx';
import { ConfirmDialog } from '../../../ui/Dialog.tsx';
import { Card, EmptyState } from '../../../ui/Page.tsx';
import { SearchInput } from '../../../ui/SearchInput.tsx';
import { Badge, Table, Td, Th } from '../../../ui/Table.tsx';
import { toast } from '../../../ui/toast/store.ts';
import { toastError } from '../../../ui/toast/toast-error.ts';
import { CompanyModal } from './CompanyModal.tsx';

const ROW_TONE: Record<Exclude<DueTone, null>, string> = {
  yellow: 'bg-yellow-100/80 dark:bg-yellow-500/15',
  orange: 'bg-orange-100/80 dark:bg-orange-500/15',
  red: 'bg-red-100/80 dark:bg-red-500/20',
};

export default function CompaniesTab() {
  const { t, i18n } = useTranslation();
  const [search, setSearch] = useState('');
  const list = useInfiniteList<Company>('/companies', 'companies', search);
  const [editing, setEditing] = useState<Company | 'new' | null>(null);
  const deleting = useConfirmDelete<Company>(async (item) => {
    await api.delete(`/companies/${item.id}`);
    list.setItems((rows) => rows.filter((r) => r.id !== item.id));
  });

  const replace = (saved: Company) =>
    list.setItems((rows) => (rows.some((r) => r.id === saved.id) ? rows.map((r) => (r.id === saved.id ? saved : r)) : [saved, ...rows]));

  const renew = async (company: Company) => {
    try {
      const saved = await api.post<Company>(`/companies/${company.id}/renew`);
      replace(saved);
      toast.success(t('companies.renewed', { date: formatDate(saved.dueDate, i18n.language) }));
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <SearchInput label={t('companies.search')} value={search} onChange={setSearch} />
        <Button icon="plus" onClick={() => setEditing('new')}>
          {t('companies.new')}
        </Button>
      </div>
      <Card className="overflow-hidden">
        <div className="max-h-[calc(100vh-17rem)] overflow-y-auto" onScroll={list.onScroll}>
          <Table label={t('settings.tabs.companies')}>
            <thead className="sticky top-0 z-10">
              <tr>
                <Th>{t('companies.name')}</Th>
                <Th>{t('companies.plan')}</Th>
                <Th>{t('companies.status')}</Th>
                <Th>{t('companies.dueDate')}</Th>
                <Th>{t('companies.recurrence')}</Th>
                <Th className="text-right">{t('common.actions')}</Th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((c) => {
                const tone = dueDateTone(daysToDue(c.dueDate));
                return (
                  <tr key={c.id} data-due-tone={tone ?? 'none'} className={tone ? ROW_TONE[tone] : 'hover:bg-raised/60'}>
                    <Td>
                      <span className="block font-medium">{c.name}</span>
                      <span className="block text-xs text-muted">{c.email}</span>
                    </Td>
                    <Td>{c.plan?.name ?? '—'}</Td>
                    <Td>
                      <Badge tone={c.status ? 'brand' : 'neutral'}>{c.status ? t('companies.active') : t('companies.inactive')}</Badge>
                    </Td>
                    <Td className="tabular-nums">{formatDate(c.dueDate, i18n.language) || '—'}</Td>
                    <Td>{t(`companies.recurrences.${c.recurrence}`, { defaultValue: c.recurrence })}</Td>
                    <Td className="text-right whitespace-nowrap">
                      <IconButton icon="renew" label={`${t('companies.renew')} ${c.name}`} onClick={() => void renew(c)} />
                      <IconButton icon="edit" label={`${t('common.edit')} ${c.name}`} onClick={() => setEditing(c)} />
                      <IconButton icon="trash" tone="danger" label={`${t('common.delete')} ${c.name}`} onClick={() => deleting.ask(c)} />
                    </Td>
                  </tr>
                );
              })}
            </tbody>
          </Table>
          {!list.loading && list.items.length === 0 && <EmptyState>{search ? t('common.noResults') : t('companies.empty')}</EmptyState>}
          {list.loading && <p className="py-4 text-center text-muted">{t('common.loading')}</p>}
        </div>
      </Card>
      <p className="text-xs text-muted">{t('companies.legend')}</p>
      {editing && (
        <CompanyModal
          company={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            replace(saved);
            setEditing(null);
          }}
        />
      )}
      <ConfirmDialog {...deleting.dialog} title={t('companies.deleteTitle')} message={t('companies.deleteConfirm', { name: deleting.target?.name ?? '' })} />
    </div>
  );
}
