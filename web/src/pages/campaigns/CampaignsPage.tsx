// /campaigns (spec/03 §2): search, add; a table of name, status, contact list, connection,
// scheduledAt and completedAt with the row actions the status machine allows (stop, restart, report,
// edit, delete). Campaigns stay on paginated REST (DESIGN §4) and the list reads itself again on
// pokes, so a campaign moving from programmed to in progress to finished shows without a reload.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AppError, can, translateError, type Campaign } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { useConfirmDelete } from '../../hooks/use-confirm-delete.ts';
import { useInfiniteList } from '../../hooks/use-infinite-list.ts';
import { currentLanguage } from '../../i18n/index.ts';
import { useUser } from '../../session/SessionProvider.tsx';
import { Button, IconButton } from '../../ui/Button.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Card, EmptyState, Page } from '../../ui/Page.tsx';
import { SearchInput } from '../../ui/SearchInput.tsx';
import { Table, Td, Th } from '../../ui/Table.tsx';
import { toast } from '../../ui/toast/store.ts';
import { toastError } from '../../ui/toast/toast-error.ts';
import { formatDateTime } from '../connections/session-actions.ts';
import { rowActions } from './campaign-form.ts';
import { CampaignModal } from './CampaignModal.tsx';
import { StatusBadge } from './StatusBadge.tsx';
import './strings.ts';

/**
 * Cancel and restart failures are shown as a toast with the server's word (spec/03 §8): the
 * catalogue's message, and for a refused transition the reason the server gives.
 */
function toastCampaignError(err: unknown): void {
  if (!(err instanceof AppError) || err.code !== 'ERR_VALIDATION' || err.message === translateError(err.code, 'en')) {
    toastError(err);
    return;
  }
  toast.error(`${translateError(err.code, currentLanguage())} ${err.message}`);
}

export function Component() {
  const { t, i18n } = useTranslation();
  const me = useUser();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const list = useInfiniteList<Campaign>('/campaigns', 'records', search);
  const [editing, setEditing] = useState<Campaign | 'new' | null>(null);
  const deleting = useConfirmDelete<Campaign>(async (c) => {
    await api.delete(`/campaigns/${c.id}`);
    list.setItems((rows) => rows.filter((r) => r.id !== c.id));
  });
  const mayDelete = can(me, 'contacts-page:deleteContact');

  const transition = async (c: Campaign, action: 'cancel' | 'restart') => {
    try {
      const saved = await api.post<Campaign>(`/campaigns/${c.id}/${action}`);
      list.setItems((rows) => rows.map((r) => (r.id === saved.id ? saved : r)));
      toast.success(t(action === 'cancel' ? 'campaigns.cancelled' : 'campaigns.restarted'));
    } catch (err) {
      // Refused because the campaign moved on meanwhile (it finished while the list still showed
      // it in progress): show where it is now rather than the refusal.
      const now = err instanceof AppError && err.code === 'ERR_VALIDATION' ? await api.get<Campaign>(`/campaigns/${c.id}`).catch(() => null) : null;
      if (now && now.status !== c.status) {
        list.setItems((rows) => rows.map((r) => (r.id === now.id ? now : r)));
        toast.info(t('campaigns.movedOn', { status: t(`campaigns.statuses.${now.status}`).toLowerCase() }));
      } else toastCampaignError(err);
    }
  };

  const when = (iso: string | null) => (iso ? formatDateTime(iso, i18n.language) : '—');
  // A restart sends now (spec/03 §4: cancelled → in progress): one stopped before its schedule asks first.
  const [early, setEarly] = useState<Campaign | null>(null);
  const restart = (c: Campaign) => (c.scheduledAt && Date.parse(c.scheduledAt) > Date.now() ? setEarly(c) : void transition(c, 'restart'));

  return (
    <Page
      title={t('campaigns.title')}
      actions={
        <>
          <SearchInput label={t('campaigns.search')} value={search} onChange={setSearch} />
          <Button icon="plus" onClick={() => setEditing('new')}>
            {t('campaigns.add')}
          </Button>
        </>
      }
    >
      <Card className="overflow-hidden">
        <div className="max-h-[calc(100vh-13rem)] overflow-y-auto" onScroll={list.onScroll}>
          <Table label={t('campaigns.title')} fluid>
            <thead className="sticky top-0 z-10">
              <tr>
                <Th>{t('campaigns.name')}</Th>
                <Th className="hidden sm:table-cell">{t('campaigns.status')}</Th>
                <Th className="hidden md:table-cell">{t('campaigns.contactList')}</Th>
                <Th className="hidden md:table-cell">{t('campaigns.connection')}</Th>
                <Th className="hidden lg:table-cell">{t('campaigns.scheduledAt')}</Th>
                <Th className="hidden lg:table-cell">{t('campaigns.completedAt')}</Th>
                <Th className="text-right">{t('common.actions')}</Th>
              </tr>
            </thead>
            <tbody>
              {list.items.map((c) => {
                const actions = rowActions(c.status, mayDelete, c.deleting);
                return (
                  <tr key={c.id} className="hover:bg-raised/60">
                    <Td className="font-medium sm:min-w-[10rem]">
                      {c.name}
                      {/* Narrow screens show the status under the name, its column hidden; below lg the schedule too. */}
                      <span className="mt-1 block sm:hidden">
                        <StatusBadge status={c.status} deleting={c.deleting} />
                      </span>
                      {c.scheduledAt && (
                        <span className="mt-0.5 flex items-center gap-1 text-xs font-normal text-muted tabular-nums lg:hidden" title={t('campaigns.scheduledAt')}>
                          <Icon name="clock" className="size-3.5 shrink-0" />
                          <span className="sr-only">{t('campaigns.scheduledAt')}</span>
                          {when(c.scheduledAt)}
                        </span>
                      )}
                    </Td>
                    <Td className="hidden sm:table-cell">
                      <StatusBadge status={c.status} deleting={c.deleting} />
                    </Td>
                    <Td className="hidden text-muted md:table-cell">{c.contactList?.name ?? '—'}</Td>
                    <Td className="hidden text-muted md:table-cell">{c.whatsapp?.name ?? '—'}</Td>
                    <Td className="hidden whitespace-nowrap tabular-nums lg:table-cell">{when(c.scheduledAt)}</Td>
                    <Td className="hidden whitespace-nowrap tabular-nums lg:table-cell">{when(c.completedAt)}</Td>
                    <Td className="text-right whitespace-nowrap">
                      {actions.stop && <IconButton icon="stop" tone="danger" label={`${t('campaigns.stop')} ${c.name}`} onClick={() => void transition(c, 'cancel')} />}
                      {actions.restart && <IconButton icon="play" label={`${t('campaigns.restart')} ${c.name}`} onClick={() => restart(c)} />}
                      {actions.report && <IconButton icon="report" label={`${t('campaigns.report')} ${c.name}`} onClick={() => void navigate(`/campaign/${c.id}/report`)} />}
                      <IconButton icon="edit" label={`${t('common.edit')} ${c.name}`} onClick={() => setEditing(c)} />
                      {actions.delete && <IconButton icon="trash" tone="danger" label={`${t('common.delete')} ${c.name}`} onClick={() => deleting.ask(c)} />}
                    </Td>
                  </tr>
                );
              })}
            </tbody>
          </Table>
          {!list.loading && list.items.length === 0 && <EmptyState>{search ? t('common.noResults') : t('campaigns.empty')}</EmptyState>}
          {list.loading && <p className="py-4 text-center text-muted">{t('common.loading')}</p>}
        </div>
      </Card>
      {editing && (
        <CampaignModal
          campaign={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            list.reload();
          }}
        />
      )}
      <ConfirmDialog
        open={early !== null}
        title={t('campaigns.restartEarlyTitle')}
        message={t('campaigns.restartEarly', { name: early?.name ?? '', when: when(early?.scheduledAt ?? null) })}
        confirmLabel={t('campaigns.restartNow')}
        onConfirm={() => {
          if (early) void transition(early, 'restart');
          setEarly(null);
        }}
        onClose={() => setEarly(null)}
      />
      <ConfirmDialog {...deleting.dialog} title={t('campaigns.deleteTitle')} message={t('campaigns.deleteConfirm', { name: deleting.target?.name ?? '' })} />
    </Page>
  );
}
