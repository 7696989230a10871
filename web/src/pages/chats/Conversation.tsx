// The message pane of one internal chat: the synced recent messages oldest first, mine on the right;
// Enter sends (Shift+Enter breaks the line), a blank message is not sent (spec/02 §5).
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SyncedChat, SyncedChatMessage } from '@zapdesk/sync/keys';
import { api } from '../../api/client.ts';
import { Button } from '../../ui/Button.tsx';
import { toastError } from '../../ui/toast/toast-error.ts';

type Props = { chat: SyncedChat; messages: SyncedChatMessage[]; meId: number; locale: string };

export function Conversation({ chat, messages, meId, locale }: Props) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const end = useRef<HTMLDivElement>(null);
  const time = new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit' });

  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [messages.length, chat.id]);

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
    <div className="flex h-full min-h-0 flex-col">
      <ol className="flex min-h-0 flex-1 flex-col gap-2 overflow-y-auto p-3" aria-label={t('chats.messagesOf', { title: chat.title })} data-testid="chat-messages">
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
        <div ref={end} />
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
