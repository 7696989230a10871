// Notifications (spec/02 §2.9, §6): tickets with unread messages that concern the user, from local
// state, with a chime at the stored volume when a new message arrives and the volume slider. The
// ticket whose chat the user is reading is left out: what arrives there is read (reading.ts).
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useUser } from '../../session/SessionProvider.tsx';
import { readStored, writeStored } from '../../session/storage.ts';
import { useSyncedList } from '../../sync/use-synced.ts';
import { useReadingTicket } from '../../pages/tickets/reading.ts';
import { MessagePreview } from '../../ui/MessagePreview.tsx';
import { newlyUnread, notificationTickets, parseVolume } from '../badges.ts';
import { Popover } from './Popover.tsx';
import { playChime } from './sound.ts';
import './strings.ts';

export function NotificationsPopover() {
  const { t } = useTranslation();
  const user = useUser();
  const navigate = useNavigate();
  const tickets = useSyncedList('ticket');
  const [volume, setVolume] = useState(() => parseVolume(readStored('volume')));
  const reading = useReadingTicket();
  const list = tickets ? notificationTickets(tickets, user, reading) : [];
  const seen = useRef(new Map<number, number>());
  const [openedAt] = useState(() => new Date().toISOString());

  // A ticket rings when its unread count grows after the page opened.
  useEffect(() => {
    if (!tickets) return;
    const now = notificationTickets(tickets, user, reading);
    if (newlyUnread(seen.current, now, openedAt).length > 0) playChime(volume);
    seen.current = new Map(now.map((tk) => [tk.id, tk.unreadMessages]));
  }, [tickets, reading]);

  const changeVolume = (v: number) => {
    setVolume(v);
    writeStored('volume', JSON.stringify(v));
  };

  return (
    <Popover icon="announcements" label={t('topbar.notifications')} badge={list.length} badgeLabel={t('topbar.notificationsCount', { count: list.length })} testId="notifications">
      {(close) => (
        <>
          {list.length === 0 ? (
            <p className="px-4 py-6 text-center text-sm text-muted">{t('topbar.noNotifications')}</p>
          ) : (
            <ul className="divide-y divide-line">
              {list.map((tk) => (
                <li key={tk.id}>
                  <button
                    type="button"
                    className="flex w-full items-start gap-3 px-4 py-2.5 text-left hover:bg-raised focus:bg-raised focus:outline-none"
                    onClick={() => {
                      close();
                      void navigate(`/tickets/${tk.uuid}`);
                    }}
                  >
                    <span className="mt-1 size-2.5 shrink-0 rounded-full" style={{ backgroundColor: tk.queue?.color ?? 'var(--color-line)' }} aria-hidden="true" />
                    <span className="min-w-0 flex-1">
                      <span className="flex items-baseline justify-between gap-2">
                        <span className="truncate text-sm font-medium">{tk.contact.name}</span>
                        <span className="shrink-0 rounded-full bg-brand px-1.5 text-[11px] font-semibold text-on-brand">{t('topbar.unread', { count: tk.unreadMessages })}</span>
                      </span>
                      <span className="block truncate text-xs text-muted"><MessagePreview text={tk.lastMessage} /></span>
                      <span className="block text-[11px] text-muted">{tk.queue?.name ?? t('topbar.noQueue')}</span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          <label className="flex items-center gap-3 border-t border-line px-4 py-2.5 text-xs text-muted">
            <span className="shrink-0">{t('topbar.volume')}</span>
            <input type="range" min={0} max={1} step={0.1} value={volume} onChange={(e) => changeVolume(Number(e.target.value))} className="w-full accent-[var(--color-brand)]" />
          </label>
        </>
      )}
    </Popover>
  );
}
