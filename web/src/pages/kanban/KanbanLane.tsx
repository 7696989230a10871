// One lane of the board and its cards: a drop target for dragged cards; each card is draggable,
// moves with ArrowLeft/ArrowRight when focused, and has a Move menu and a see-ticket link.
import { useEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Ticket } from '@zapdesk/sync';
import { Menu } from '../../ui/Menu.tsx';
import { MessagePreview } from '../../ui/MessagePreview.tsx';
import type { Lane } from './lanes.ts';

const DRAG_TYPE = 'application/x-zapdesk-ticket';

type Props = {
  lane: Lane;
  lanes: Lane[];
  focusId: number | null;
  onDrop: (ticketId: number, to: Lane) => void;
  onMove: (ticket: Ticket, to: Lane) => void;
  onMoveBy: (ticket: Ticket, from: Lane, step: -1 | 1) => void;
};

export function KanbanLane({ lane, lanes, focusId, onDrop, onMove, onMoveBy }: Props) {
  const { t } = useTranslation();
  const [over, setOver] = useState(false);
  const title = lane.title ?? t('kanban.open');
  const headingId = `lane-${lane.id}`;

  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const id = Number(e.dataTransfer.getData(DRAG_TYPE));
    if (id) onDrop(id, lane);
  };

  return (
    <section
      aria-labelledby={headingId}
      data-lane={lane.id}
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes(DRAG_TYPE)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'move';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      className={`flex max-h-[calc(100vh-12rem)] w-[17.5rem] shrink-0 snap-start flex-col rounded-lg border bg-raised/60 ${over ? 'border-brand ring-2 ring-brand/30' : 'border-line'}`}
    >
      <h2 id={headingId} className="flex items-center justify-between gap-2 rounded-t-lg border-b border-line px-3 py-2 text-sm font-semibold" style={{ borderTop: `4px solid ${lane.color ?? 'transparent'}` }}>
        <span className="truncate">{title}</span>
        <span className="rounded-full bg-surface px-2 text-xs text-muted tabular-nums">{lane.tickets.length}</span>
      </h2>
      <ul className="flex min-h-24 flex-1 flex-col gap-2 overflow-y-auto p-2">
        {lane.tickets.map((ticket) => (
          <Card key={ticket.id} ticket={ticket} lane={lane} lanes={lanes} focused={focusId === ticket.id} onMove={onMove} onMoveBy={onMoveBy} />
        ))}
        {lane.tickets.length === 0 && <li className="py-6 text-center text-xs text-muted">{t('kanban.emptyLane')}</li>}
      </ul>
    </section>
  );
}

type CardProps = { ticket: Ticket; lane: Lane; lanes: Lane[]; focused: boolean; onMove: Props['onMove']; onMoveBy: Props['onMoveBy'] };

function Card({ ticket, lane, lanes, focused, onMove, onMoveBy }: CardProps) {
  const { t } = useTranslation();
  const ref = useRef<HTMLLIElement>(null);
  // A card moved by the keyboard keeps the focus in its new lane.
  useEffect(() => {
    if (focused) ref.current?.focus();
  }, [focused, lane.id]);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.target !== e.currentTarget) return;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      e.preventDefault();
      onMoveBy(ticket, lane, e.key === 'ArrowLeft' ? -1 : 1);
    }
  };

  return (
    <li
      ref={ref}
      tabIndex={0}
      draggable
      aria-label={t('kanban.card', { number: ticket.id, name: ticket.contact.name, lane: lane.title ?? t('kanban.open') })}
      aria-describedby="kanban-keys"
      data-ticket={ticket.id}
      onDragStart={(e) => {
        e.dataTransfer.setData(DRAG_TYPE, String(ticket.id));
        e.dataTransfer.effectAllowed = 'move';
      }}
      onKeyDown={onKeyDown}
      className="cursor-grab rounded-md border border-line bg-surface p-2.5 shadow-xs focus:ring-2 focus:ring-brand/40 focus:outline-none active:cursor-grabbing"
    >
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="text-xs text-muted">
            #{ticket.id} · {t(`kanban.status.${ticket.status}`, { defaultValue: ticket.status })}
          </p>
          <p className="truncate font-medium">{ticket.contact.name}</p>
          <p className="text-xs text-muted tabular-nums">{ticket.contact.number}</p>
        </div>
        <Menu
          label={t('kanban.moveTo')}
          trigger={<span aria-hidden="true">⋯</span>}
          triggerClassName="inline-flex size-7 items-center justify-center rounded-md text-muted hover:bg-raised hover:text-ink"
          entries={lanes
            .filter((l) => l.id !== lane.id)
            .map((l) => ({ key: l.id, label: t('kanban.moveToLane', { lane: l.title ?? t('kanban.open') }), onSelect: () => onMove(ticket, l) }))}
        />
      </div>
      {ticket.lastMessage && <p className="mt-1.5 line-clamp-2 text-xs break-words text-muted"><MessagePreview text={ticket.lastMessage} /></p>}
      <Link to={`/tickets/${ticket.uuid}`} className="mt-2 inline-block text-xs font-medium text-brand hover:underline">
        {t('kanban.seeTicket')}
      </Link>
    </li>
  );
}
