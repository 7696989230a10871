// One ticket of the list: avatar, contact, last message, time, unread badge, queue and tags; a
// pending ticket is not selectable by click (spec/02 §4), it has Accept; admins get the peek icon.
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Ticket } from '@zapdesk/sync';
import { Icon } from '../../../ui/Icon.tsx';
import { MessagePreview } from '../../../ui/MessagePreview.tsx';
import { dayLabel, timeLabel } from '../chat/messages.ts';
import { ticketActions, type Actor } from '../actions/ticket-actions.ts';
import { useReadingTicket } from '../reading.ts';
import { shortName } from './ticket-list.ts';

export function Avatar({ name, url, size = 'size-10 text-sm' }: { name: string; url: string | null; size?: string }) {
  const initials = name.split(/\s+/).filter(Boolean).slice(0, 2).map((w) => w[0]!.toUpperCase()).join('');
  // WhatsApp's picture URLs expire (the server renews them daily): a dead one shows the initials.
  const [failed, setFailed] = useState<string | null>(null);
  return url && failed !== url ? (
    <img src={url} alt="" className={`${size} shrink-0 rounded-full object-cover`} onError={() => setFailed(url)} />
  ) : (
    <span className={`${size} flex shrink-0 items-center justify-center rounded-full bg-brand-soft font-semibold text-brand`} aria-hidden="true">
      {initials || '?'}
    </span>
  );
}

/** Today: the time; earlier: the day. */
function whenLabel(iso: string): string {
  return dayLabel(iso) === dayLabel(new Date().toISOString()) ? timeLabel(iso) : dayLabel(iso);
}

type Props = { ticket: Ticket; selected: boolean; actor: Actor; narrow: boolean; onOpen: (t: Ticket) => void; onAccept: (t: Ticket) => void; onSpy: (t: Ticket) => void };

export const TicketItem = memo(function TicketItem({ ticket, selected, actor, narrow, onOpen, onAccept, onSpy }: Props) {
  const { t } = useTranslation();
  const can = ticketActions(ticket, actor);
  const pending = ticket.status === 'pending';
  const when = ticket.lastInteractionAt ?? ticket.updatedAt;
  // The chat its holder is reading: what arrives there is read already (reading.ts).
  const unread = useReadingTicket() === ticket.id ? 0 : ticket.unreadMessages;
  return (
    <div
      className={`relative flex items-start gap-3 border-b border-line px-3 py-2.5 ${selected ? 'bg-brand-soft/60' : 'hover:bg-raised'} ${pending ? '' : 'cursor-pointer'}`}
      style={{ boxShadow: `inset 4px 0 0 ${ticket.queue?.color ?? 'var(--color-line)'}` }}
      data-testid="ticket-item"
      data-ticket-id={ticket.id}
      data-status={ticket.status}
    >
      <Avatar name={ticket.contact.name} url={ticket.contact.profilePicUrl} />
      <div className="min-w-0 flex-1">
        <div className="flex items-baseline gap-2">
          {pending ? (
            <span className="truncate font-medium">{shortName(ticket.contact.name, narrow)}</span>
          ) : (
            // The whole row opens the ticket; the button gives it a name and keyboard focus.
            <button type="button" onClick={() => onOpen(ticket)} aria-current={selected ? 'true' : undefined} className="truncate text-left font-medium after:absolute after:inset-0 focus:outline-none focus-visible:after:ring-2 focus-visible:after:ring-brand">
              {shortName(ticket.contact.name, narrow)}
            </button>
          )}
          <time dateTime={when} className="ml-auto shrink-0 text-xs text-muted">
            {whenLabel(when)}
          </time>
        </div>
        <div className="flex items-center gap-2">
          <p className="min-w-0 flex-1 truncate text-sm text-muted"><MessagePreview text={ticket.lastMessage} /></p>
          {unread > 0 && (
            <span className="rounded-full bg-emerald-600 px-1.5 text-xs font-semibold text-white" aria-label={t('tickets.list.unread', { count: unread })}>
              {unread}
            </span>
          )}
        </div>
        <div className="mt-1 flex flex-wrap items-center gap-1">
          <span className="rounded px-1.5 text-[11px] text-white" style={{ backgroundColor: ticket.queue?.color ?? '#7c7c7c' }}>
            {ticket.queue?.name ?? t('tickets.list.noQueue')}
          </span>
          {ticket.user && <span className="rounded border border-line px-1.5 text-[11px] text-muted">{ticket.user.name}</span>}
          {ticket.tags.map((tag) => (
            <span key={tag.id} className="rounded px-1.5 text-[11px] text-white" style={{ backgroundColor: tag.color }}>
              {tag.name}
            </span>
          ))}
        </div>
      </div>
      {(can.has('spy') || (pending && can.has('accept'))) && (
        <div className="relative z-10 flex shrink-0 flex-col items-end gap-1 self-center">
          {can.has('spy') && (
            <button type="button" onClick={() => onSpy(ticket)} aria-label={t('tickets.list.spy')} title={t('tickets.list.spy')} className="rounded p-1 text-muted hover:bg-raised hover:text-ink">
              <Icon name="eye" className="size-4" />
            </button>
          )}
          {pending && can.has('accept') && (
            <button type="button" onClick={() => onAccept(ticket)} className="rounded-md bg-brand px-2.5 py-1 text-xs font-semibold text-on-brand hover:bg-brand-strong">
              {t('tickets.list.accept')}
            </button>
          )}
        </div>
      )}
    </div>
  );
});
