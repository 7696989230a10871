// The message pane of one internal chat: the synced recent messages oldest first, mine on the right,
// and older ones from REST when scrolled under 600 px from the top (spec/02 §9), prepended without
// moving what the reader sees. Enter sends (Shift+Enter breaks the line), a blank message is not sent
// (spec/02 §5).
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Chat, ChatMessage } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { toastError } from '../../ui/toast/toast-error.ts';
import { mergeChatMessages } from './chats.ts';
import { useOlderMessages } from './use-older-messages.ts';

/** spec/02 §9: the chat loads older messages when scrolled under 600 px from the top. */
const LOAD_OLDER_WITHIN = 600;

type Props = { chat: Chat; synced: readonly ChatMessage[]; meId: number; locale: string };
type Anchor = { chatId: number; firstId?: number; lastId?: number; height: number };

export function Conversation({ chat, synced, meId, locale }: Props) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const list = useRef<HTMLOListElement>(null);
  const anchor = useRef<Anchor | null>(null);
  const { older, loading, hasMore, loadOlder } = useOlderMessages(chat.id);
  const messages = useMemo(() => mergeChatMessages(older, synced, chat.id), [older, synced, chat.id]);
  const time = new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit' });

  const loadIfNearTop = () => {
    const el = list.current;
    if (el && hasMore && !loading && el.scrollHeight > el.clientHeight && el.scrollTop < LOAD_OLDER_WITHIN) loadOlder(messages);
  };

  // Another chat or a new message shows the newest; older ones prepended keep the reader's place
  // (and, if the place is still near the top, the next page is asked for: a wheel at scrollTop 0
  // fires no scroll event).
  useLayoutEffect(() => {
    const el = list.current;
    if (!el) return;
    const first = messages[0]?.id;
    const last = messages.at(-1)?.id;
    const prev = anchor.current;
    if (prev?.chatId !== chat.id || last !== prev.lastId) el.scrollTop = el.scrollHeight;
    else if (first !== prev.firstId) {
      el.scrollTop += el.scrollHeight - prev.height;
      loadIfNearTop();
    }
    anchor.current = { chatId: chat.id, firstId: first, lastId: last, height: el.scrollHeight };
  });

  const send = async () => {
    const message = text.trim();
    if (message === '' || sending) return;
    setSending(true);
    try {
      await api.post(`/chats/${chat.id}/messages`, { message });
      setText('');
    } catch (err) {
      toastError(err);
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="relative flex h-full min-h-0 flex-col">
      {loading && (
        // Over the list, not in it: showing and hiding it must not shift the messages.
        <p role="status" className="absolute top-2 left-1/2 z-10 -translate-x-1/2 rounded-full border border-line bg-surface px-3 py-0.5 text-xs text-muted shadow-xs">
          {t('chats.loadingOlder')}
        </p>
      )}
      <ol
        ref={list}
        onScroll={loadIfNearTop}
        className="flex min-h-0 flex-1 flex-col gap-2 overflow-y-auto p-3"
        aria-label={t('chats.messagesOf', { title: chat.title })}
        aria-busy={loading}
        data-testid="chat-messages"
      >
        {messages.map((m) => {
          const mine = m.senderId === meId;
          return (
            <li key={m.id} className={`max-w-[85%] rounded-lg px-3 py-2 text-sm shadow-xs ${mine ? 'self-end bg-brand-soft' : 'self-start border border-line bg-surface'}`}>
              {!mine && <p className="text-xs font-semibold text-brand">{m.sender?.name ?? t('chats.someone')}</p>}
              <p className="break-words whitespace-pre-wrap">{m.message}</p>
              <p className="mt-0.5 text-right text-[11px] text-muted">{time.format(new Date(m.createdAt))}</p>
            </li>
          );
        })}
        {messages.length === 0 && <li className="py-10 text-center text-muted">{t('chats.noMessages')}</li>}
      </ol>
      <form
        className="flex items-end gap-2 border-t border-line p-2"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <textarea
          aria-label={t('chats.typeMessage')}
          placeholder={t('chats.typeMessage')}
          rows={1}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              void send();
            }
          }}
          className="max-h-32 min-h-9 flex-1 resize-none rounded-md border border-line bg-surface px-3 py-2 text-sm text-ink focus:border-brand focus:ring-2 focus:ring-brand/25 focus:outline-none"
        />
        <Button type="submit" busy={sending}>
          {t('chats.send')}
        </Button>
      </form>
    </div>
  );
}
