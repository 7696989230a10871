// The drawer's badges from local state: "!" on Connections 2 s after the connection list changes
// and some connection needs attention (spec/01 §4), and the number of internal chats with unread
// messages for the user on Internal chat.
import { useEffect, useState } from 'react';
import { useUser } from '../session/SessionProvider.tsx';
import { useSyncedList } from '../sync/use-synced.ts';
import { CONNECTION_CHECK_DELAY_MS, connectionsNeedAttention, unreadChats } from './badges.ts';

export function useConnectionAttention(enabled: boolean): boolean {
  const rows = useSyncedList('connection');
  const [attention, setAttention] = useState(false);
  useEffect(() => {
    if (!enabled || !rows) return;
    const timer = setTimeout(() => setAttention(connectionsNeedAttention(rows)), CONNECTION_CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [enabled, rows]);
  return enabled && attention;
}

export function useUnreadChatCount(): number {
  const user = useUser();
  const chats = useSyncedList('chat');
  return chats ? unreadChats(chats, user.id).length : 0;
}
