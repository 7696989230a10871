// The ticket manager (spec/02 §2.1): tabs open / closed / search. Open reads the synced tickets
// (instant, live): sub-tabs assigned and pending with counts, show-all switch for those allowed,
// queue filter, new-ticket button. Closed and search page through GET /tickets.
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isCompanyAdmin, type Ticket } from '@zapdesk/sync';
import { useInfiniteList } from '../../../hooks/use-infinite-list.ts';
import { useUser } from '../../../session/SessionProvider.tsx';
import { useSyncedList } from '../../../sync/use-synced.ts';
import { Button } from '../../../ui/Button.tsx';
import { SearchInput } from '../../../ui/SearchInput.tsx';
import { Tabs } from '../../../ui/Tabs.tsx';
import { MultiSelect } from './MultiSelect.tsx';
import { canShowAll, openLists } from './ticket-list.ts';
import { TicketList } from './TicketList.tsx';

type Tab = 'open' | 'closed' | 'search';
type OpenTab = 'assigned' | 'pending';

type Props = {
  tickets: Ticket[] | undefined;
  selectedUuid: string | undefined;
  narrow: boolean;
  onOpen: (t: Ticket) => void;
  onAccept: (t: Ticket) => void;
  onSpy: (t: Ticket) => void;
  onNewTicket: () => void;
};

type ListProps = Omit<Props, 'tickets' | 'onNewTicket'> & { query: Record<string, string | number | undefined>; search?: string; sections?: boolean };

/** A REST page list (closed, search): mounted only while its tab is shown. */
function PagedTickets({ query, search = '', ...rest }: ListProps) {
  const me = useUser();
  const list = useInfiniteList<Ticket>('/tickets', 'tickets', search, query);
  return <TicketList tickets={list.items} loading={list.loading} onScroll={list.onScroll} actor={me} {...rest} />;
}

const ids = (list: readonly number[]) => (list.length ? JSON.stringify(list) : undefined);

export function TicketManager({ tickets, selectedUuid, narrow, onOpen, onAccept, onSpy, onNewTicket }: Props) {
  const { t } = useTranslation();
  const me = useUser();
  const queues = useSyncedList('queue') ?? [];
  const tags = useSyncedList('tag') ?? [];
  const users = useSyncedList('user') ?? [];
  const [tab, setTab] = useState<Tab>('open');
  const [openTab, setOpenTab] = useState<OpenTab>('assigned');
  const [showAll, setShowAll] = useState(() => canShowAll(me));
  const [queueIds, setQueueIds] = useState<number[] | null>(null);
  const [search, setSearch] = useState('');
  const [tagIds, setTagIds] = useState<number[]>([]);
  const [userIds, setUserIds] = useState<number[]>([]);
  const admin = isCompanyAdmin(me);

  // Until the user picks, the filter is their own queues (all queues when they have none).
  const myQueues = me.queues.length ? me.queues.map((q) => q.id) : queues.map((q) => q.id);
  const selectedQueues = queueIds ?? myQueues;
  const viewer = useMemo(() => ({ id: me.id, profile: me.profile, super: me.super, queueIds: me.queues.map((q) => q.id) }), [me]);
  const lists = useMemo(() => openLists(tickets ?? [], viewer, { showAll, queueIds: selectedQueues }), [tickets, viewer, showAll, selectedQueues]);
  // An accepted ticket is one of mine now: the list follows it to the assigned tab (spec/02 §4).
  const accept = useCallback(
    (ticket: Ticket) => {
      setTab('open');
      setOpenTab('assigned');
      onAccept(ticket);
    },
    [onAccept],
  );
  const common = { selectedUuid, narrow, onOpen, onAccept: accept, onSpy };
  const restQuery = { showAll: showAll ? 'true' : 'false', queueIds: ids(selectedQueues) };

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <Tabs
        label={t('tickets.tabs.label')}
        active={tab}
        onChange={setTab}
        tabs={[
          { key: 'open', label: t('tickets.tabs.open') },
          { key: 'closed', label: t('tickets.tabs.closed') },
          { key: 'search', label: t('tickets.tabs.search') },
        ]}
      />
      <div className="flex flex-wrap items-center gap-2 border-b border-line px-2 py-2">
        {tab === 'search' ? (
          <>
            <SearchInput
              label={t('tickets.options.search')}
              value={search}
              onChange={(value) => {
                setSearch(value);
                // Emptying the search goes back to the open tickets (spec/02 §2.1).
                if (search && !value) setTab('open');
              }}
            />
            <MultiSelect label={t('tickets.options.tags')} options={tags} value={tagIds} onChange={setTagIds} />
            {admin && <MultiSelect label={t('tickets.options.users')} options={users} value={userIds} onChange={setUserIds} />}
          </>
        ) : (
          <>
            <Button icon="plus" onClick={onNewTicket} className="h-8 px-2.5 text-xs">
              {t('tickets.options.newTicket')}
            </Button>
            {canShowAll(me) && (
              <label className="flex items-center gap-1.5 text-xs font-medium">
                <input type="checkbox" role="switch" checked={showAll} onChange={(e) => setShowAll(e.target.checked)} />
                {t('tickets.options.showAll')}
              </label>
            )}
            <div className="ml-auto">
              <MultiSelect label={t('tickets.options.queues')} options={queues} value={selectedQueues} onChange={setQueueIds} />
            </div>
          </>
        )}
      </div>
      {tab === 'open' && (
        <>
          <Tabs
            label={t('tickets.tabs.open')}
            active={openTab}
            onChange={setOpenTab}
            tabs={[
              { key: 'assigned', label: `${t('tickets.tabs.assigned')} (${lists.assigned.length})` },
              { key: 'pending', label: `${t('tickets.tabs.pending')} (${lists.pending.length})` },
            ]}
          />
          <TicketList tickets={openTab === 'assigned' ? lists.assigned : lists.pending} loading={tickets === undefined} actor={me} {...common} />
        </>
      )}
      {tab === 'closed' && <PagedTickets key="closed" query={{ status: 'closed', ...restQuery }} {...common} />}
      {tab === 'search' && <PagedTickets key="search" sections search={search} query={{ ...restQuery, tags: ids(tagIds), users: ids(userIds) }} {...common} />}
    </div>
  );
}
