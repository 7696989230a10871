// A virtualised list of tickets (2,000 rows keep a couple of dozen nodes), optionally in the spec's
// two sections (Waiting, In progress), with "load more" near the bottom for REST pages.
import { useMemo, useRef, type UIEvent } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import type { Ticket } from '@zapdesk/sync';
import { EmptyState } from '../../../ui/Page.tsx';
import { TicketItem } from './TicketItem.tsx';
import type { Actor } from '../actions/ticket-actions.ts';

type Row = { kind: 'section'; label: string } | { kind: 'ticket'; ticket: Ticket };

type Props = {
  tickets: Ticket[];
  /** Group by status under the Waiting and In progress headings. */
  sections?: boolean;
  selectedUuid: string | undefined;
  actor: Actor;
  narrow: boolean;
  loading?: boolean;
  onScroll?: (e: UIEvent<HTMLElement>) => void;
  onOpen: (t: Ticket) => void;
  onAccept: (t: Ticket) => void;
  onSpy: (t: Ticket) => void;
};

export function TicketList({ tickets, sections, selectedUuid, actor, narrow, loading, onScroll, onOpen, onAccept, onSpy }: Props) {
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const rows = useMemo<Row[]>(() => {
    if (!sections) return tickets.map((ticket) => ({ kind: 'ticket', ticket }));
    const waiting = tickets.filter((x) => x.status === 'pending');
    const working = tickets.filter((x) => x.status !== 'pending');
    const out: Row[] = [];
    if (waiting.length) out.push({ kind: 'section', label: t('tickets.list.waiting') }, ...waiting.map((ticket) => ({ kind: 'ticket' as const, ticket })));
    if (working.length) out.push({ kind: 'section', label: t('tickets.list.inProgress') }, ...working.map((ticket) => ({ kind: 'ticket' as const, ticket })));
    return out;
  }, [tickets, sections, t]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (rows[i]?.kind === 'section' ? 28 : 84),
    getItemKey: (i) => {
      const row = rows[i]!;
      return row.kind === 'section' ? `s-${row.label}` : row.ticket.id;
    },
    overscan: 6,
  });
  const items = virtualizer.getVirtualItems();
  return (
    <div ref={scrollRef} onScroll={onScroll} className="min-h-0 flex-1 overflow-y-auto" data-testid="ticket-list">
      <div role="list" aria-label={t('tickets.list.label')} style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((item) => {
          const row = rows[item.index]!;
          return (
            <div key={item.key} role={row.kind === 'ticket' ? 'listitem' : 'presentation'} data-index={item.index} ref={virtualizer.measureElement} className="absolute inset-x-0" style={{ transform: `translateY(${item.start}px)` }}>
              {row.kind === 'section' ? (
                <h3 className="bg-raised px-3 py-1 text-xs font-semibold tracking-wide text-muted uppercase">{row.label}</h3>
              ) : (
                <TicketItem ticket={row.ticket} selected={row.ticket.uuid === selectedUuid} actor={actor} narrow={narrow} onOpen={onOpen} onAccept={onAccept} onSpy={onSpy} />
              )}
            </div>
          );
        })}
      </div>
      {!loading && rows.length === 0 && <EmptyState>{t('tickets.list.empty')}</EmptyState>}
      {loading && <p className="py-4 text-center text-sm text-muted">{t('common.loading')}</p>}
    </div>
  );
}
