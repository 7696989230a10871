// Internal chats (spec/02 §2.9, §4): the user's chats with unread messages, from local state; the
// dot clears once the popover is opened (and again shows when a new message arrives).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useUser } from '../../session/SessionProvider.tsx';
import { useSyncedList } from '../../sync/use-synced.ts';
import { unreadChats } from '../badges.ts';
import { Popover } from './Popover.tsx';
import './strings.ts';

export function ChatsPopover() {
  const { t } = useTranslation();
  const user = useUser();
  const navigate = useNavigate();
  const unread = unreadChats(useSyncedList('chat') ?? [], user.id).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  const stamp = unread.map((c) => `${c.id}@${c.updatedAt}`).join();
  const [seenStamp, setSeenStamp] = useState('');

  return (
    <Popover icon="chats" label={t('topbar.chats')} badge={unread.length > 0 && stamp !== seenStamp} badgeLabel={t('topbar.newChatMessages')} onOpen={() => setSeenStamp(stamp)} testId="chats">
      {(close) => (
        <>
          {unread.length === 0 ? (
            <p className="px-4 py-6 text-center text-sm text-muted">{t('topbar.noChats')}</p>
          ) : (
            <ul className="divide-y divide-line">
              {unread.map((c) => (
                <li key={c.id}>
                  <button
                    type="button"
                    className="w-full px-4 py-2.5 text-left hover:bg-raised focus:bg-raised focus:outline-none"
                    onClick={() => {
                      close();
                      void navigate(`/chats/${c.uuid}`);
                    }}
                  >
                    <span className="flex items-baseline justify-between gap-2">
                      <span className="truncate text-sm font-medium">{c.title}</span>
                      <span className="shrink-0 rounded-full bg-brand px-1.5 text-[11px] font-semibold text-on-brand">
                        {t('topbar.unread', { count: c.users.find((u) => u.userId === user.id)?.unreads ?? 0 })}
                      </span>
                    </span>
                    <span className="block truncate text-xs text-muted">{c.lastMessage}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          <button
            type="button"
            className="w-full border-t border-line px-4 py-2.5 text-left text-sm font-medium text-brand hover:bg-raised"
            onClick={() => {
              close();
              void navigate('/chats');
            }}
          >
            {t('topbar.openChats')}
          </button>
        </>
      )}
    </Popover>
  );
}
