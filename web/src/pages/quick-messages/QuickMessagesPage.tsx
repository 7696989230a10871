// /quick-messages (spec/02 §2.14): the synced quick messages (the company's shared ones and my own),
// searched locally; a table of shortcode, attachment name (or a no-attachment text), edit, delete.
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isCompanyAdmin, type QuickMessage } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { useConfirmDelete } from '../../hooks/use-confirm-delete.ts';
import { useUser } from '../../session/SessionProvider.tsx';
import { useSyncedList } from '../../sync/use-synced.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Card, EmptyState, Page } from '../../ui/Page.tsx';
import { SearchInput } from '../../ui/SearchInput.tsx';
import { Badge, Table, Td, Th } from '../../ui/Table.tsx';
import { QuickMessageModal } from './QuickMessageModal.tsx';
import { matchesSearch } from './search.ts';
import './strings.ts';

export function Component() {
  const { t } = useTranslation();
  const me = useUser();
  const rows = useSyncedList('quickMessage');
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<QuickMessage | 'new' | null>(null);

  const shown = useMemo(
    () => (rows ?? []).filter((q) => matchesSearch([q.shortcode, q.message], search)).sort((a, b) => a.shortcode.localeCompare(b.shortcode)),
    [rows, search],
  );
  // The server lets the author change a quick message, and an admin the shared ones.
  const mayChange = (q: QuickMessage) => q.userId === me.id || (q.geral && isCompanyAdmin(me));

  const deleting = useConfirmDelete<QuickMessage>((q) => api.delete(`/quick-messages/${q.id}`));

  return (
    <Page
      title={t('quick-messages.title')}
      actions={
        <>
          <SearchInput label={t('quick-messages.search')} value={search} onChange={setSearch} />
          <Button icon="plus" onClick={() => setEditing('new')}>
            {t('quick-messages.add')}
          </Button>
        </>
      }
    >
      <Card className="overflow-hidden">
        <Table label={t('quick-messages.title')} fluid>
          <thead>
            <tr>
              <Th>{t('quick-messages.shortcode')}</Th>
              <Th className="hidden sm:table-cell">{t('quick-messages.attachment')}</Th>
              <Th className="text-right">{t('common.actions')}</Th>
            </tr>
          </thead>
          <tbody>
            {shown.map((q) => (
              <tr key={q.id} className="hover:bg-raised/60">
                <Td>
                  <span className="flex flex-wrap items-center gap-2">
                    <span className="font-medium">/{q.shortcode}</span>
                    <Badge tone={q.geral ? 'brand' : 'neutral'}>{q.geral ? t('quick-messages.shared') : t('quick-messages.private')}</Badge>
                  </span>
                  <span className="mt-0.5 block max-w-[36rem] truncate text-xs text-muted">{q.message}</span>
                  <span className="block text-xs text-muted sm:hidden">{q.mediaName ?? t('quick-messages.noAttachment')}</span>
                </Td>
                <Td className="hidden text-muted sm:table-cell">{q.mediaName ?? t('quick-messages.noAttachment')}</Td>
                <Td className="text-right whitespace-nowrap">
                  {mayChange(q) && (
                    <>
                      <IconButton icon="edit" label={`${t('common.edit')} /${q.shortcode}`} onClick={() => setEditing(q)} />
                      <IconButton icon="trash" tone="danger" label={`${t('common.delete')} /${q.shortcode}`} onClick={() => deleting.ask(q)} />
                    </>
                  )}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
        {rows && shown.length === 0 && <EmptyState>{search ? t('common.noResults') : t('quick-messages.empty')}</EmptyState>}
        {!rows && <p className="py-4 text-center text-muted">{t('common.loading')}</p>}
      </Card>
      {editing && <QuickMessageModal quick={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog {...deleting.dialog} title={t('quick-messages.deleteTitle')} message={t('quick-messages.deleteConfirm', { shortcode: deleting.target?.shortcode ?? '' })} />
    </Page>
  );
}
