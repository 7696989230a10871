// /schedules (spec/02 §2.15): the synced scheduled messages on a month or week calendar, one event
// per sendAt with the contact's name, edit and delete; search; add. ?contactId= opens the add dialog
// with that contact chosen.
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { ContactOption, ScheduledMessage } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { useConfirmDelete } from '../../hooks/use-confirm-delete.ts';
import { useSyncedList } from '../../sync/use-synced.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Card, Page } from '../../ui/Page.tsx';
import { SearchInput } from '../../ui/SearchInput.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
import { toastError } from '../../ui/toast/toast-error.ts';
import { matchesSearch } from '../quick-messages/search.ts';
import { Calendar } from './Calendar.tsx';
import { groupByDay, shiftView } from './calendar.ts';
import { ScheduleModal } from './ScheduleModal.tsx';
import './strings.ts';

type Editing = { schedule: ScheduledMessage | null; contact?: ContactOption | null };

export function Component() {
  const { t, i18n } = useTranslation();
  const rows = useSyncedList('schedule');
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState('');
  const [view, setView] = useState<'month' | 'week'>('month');
  const [cursor, setCursor] = useState(() => new Date());
  const [editing, setEditing] = useState<Editing | null>(null);

  // ?contactId=12 opens the add dialog with that contact (spec/02 §2).
  const contactParam = params.get('contactId');
  useEffect(() => {
    if (!contactParam) return;
    let live = true;
    api.get<ContactOption>(`/contacts/${Number(contactParam)}`).then(
      (c) => live && setEditing({ schedule: null, contact: { id: c.id, name: c.name, number: c.number } }),
      toastError,
    );
    setParams((p) => {
      p.delete('contactId');
      return p;
    }, { replace: true });
    return () => {
      live = false;
    };
  }, [contactParam, setParams]);

  const days = useMemo(() => groupByDay((rows ?? []).filter((s) => matchesSearch([s.contact?.name, s.contact?.number, s.body], search))), [rows, search]);
  const heading = new Intl.DateTimeFormat(i18n.language, view === 'month' ? { month: 'long', year: 'numeric' } : { day: '2-digit', month: 'short', year: 'numeric' }).format(cursor);

  const deleting = useConfirmDelete<ScheduledMessage>((s) => api.delete(`/schedules/${s.id}`));

  return (
    <Page
      title={t('schedules.title')}
      actions={
        <>
          <SearchInput label={t('schedules.search')} value={search} onChange={setSearch} />
          <Button icon="plus" onClick={() => setEditing({ schedule: null })}>
            {t('schedules.add')}
          </Button>
        </>
      }
    >
      <Card className="overflow-hidden">
        <div className="flex flex-wrap items-center justify-between gap-2 border-b border-line px-3 py-2">
          <div className="flex items-center gap-1">
            <IconButton icon="chevronLeft" label={t('schedules.previous')} onClick={() => setCursor((c) => shiftView(c, view, -1))} />
            <IconButton icon="chevronLeft" className="rotate-180" label={t('schedules.next')} onClick={() => setCursor((c) => shiftView(c, view, 1))} />
            <Button variant="ghost" onClick={() => setCursor(new Date())}>
              {t('schedules.today')}
            </Button>
            <h2 className="ml-1 text-base font-semibold capitalize" aria-live="polite">
              {heading}
            </h2>
          </div>
          <Tabs
            label={t('schedules.view')}
            active={view}
            onChange={setView}
            tabs={[
              { key: 'month', label: t('schedules.month') },
              { key: 'week', label: t('schedules.week') },
            ]}
          />
        </div>
        {!rows ? (
          <p className="py-4 text-center text-muted">{t('common.loading')}</p>
        ) : (
          <Calendar view={view} cursor={cursor} days={days} locale={i18n.language} onEdit={(schedule) => setEditing({ schedule })} onDelete={deleting.ask} />
        )}
      </Card>
      {editing && <ScheduleModal schedule={editing.schedule} initialContact={editing.contact ?? null} onClose={() => setEditing(null)} />}
      <ConfirmDialog {...deleting.dialog} title={t('schedules.deleteTitle')} message={t('schedules.deleteConfirm', { name: deleting.target?.contact?.name ?? '' })} />
    </Page>
  );
}
