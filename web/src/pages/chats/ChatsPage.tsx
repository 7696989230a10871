// /chats and /chats/{uuid} (spec/02 §2.18): the synced internal chats with my unread counts beside the
// open chat's messages on wide screens, as two tabs on narrow ones. Opening a chat with unreads marks
// it read; the owner edits or deletes it.
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import type { Chat } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { useConfirmDelete } from '../../hooks/use-confirm-delete.ts';
import { useUser } from '../../session/SessionProvider.tsx';
import { useSyncedList } from '../../sync/use-synced.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Card, EmptyState, Page } from '../../ui/Page.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
import { toastError } from '../../ui/toast/toast-error.ts';
import { ChatDialog } from './ChatDialog.tsx';
import { messagesOf, sortChats, unreadFor } from './chats.ts';
import { Conversation } from './Conversation.tsx';
import './strings.ts';

export function Component() {
  const { t, i18n } = useTranslation();
  const me = useUser();
  const navigate = useNavigate();
  const { uuid } = useParams();
  const chats = useSyncedList('chat');
  const allMessages = useSyncedList('chatMessage');
  const [tab, setTab] = useState<'list' | 'chat'>(uuid ? 'chat' : 'list');
  const [editing, setEditing] = useState<Chat | 'new' | null>(null);

  const sorted = useMemo(() => sortChats(chats ?? []), [chats]);
  const current = sorted.find((c) => c.uuid === uuid) ?? null;
  const messages = useMemo(() => (current ? messagesOf(allMessages ?? [], current.id) : []), [allMessages, current]);
  const unread = current ? unreadFor(current, me.id) : 0;

  // Opening a chat with unreads marks it read (spec/02 §4); a message arriving while it is open too.
  useEffect(() => {
    if (!current || unread === 0) return;
    api.post(`/chats/${current.id}/read`, { userId: me.id }).catch(toastError);
  }, [current?.id, unread, me.id]);

  const open = (chat: Chat) => {
    setTab('chat');
    void navigate(`/chats/${chat.uuid}`);
  };

  const deleting = useConfirmDelete<Chat>(async (chat) => {
    await api.delete(`/chats/${chat.id}`);
    if (chat.uuid === uuid) void navigate('/chats');
  });

  const list = (
    <ul className="min-h-0 flex-1 overflow-y-auto" aria-label={t('chats.list')}>
      {sorted.map((c) => {
        const n = unreadFor(c, me.id);
        const selected = c.uuid === uuid;
        return (
          <li key={c.id} className={`flex items-center gap-1 border-b border-line pr-1 ${selected ? 'bg-brand-soft' : 'hover:bg-raised'}`}>
            <button type="button" onClick={() => open(c)} aria-current={selected ? 'true' : undefined} className="min-w-0 flex-1 px-3 py-2.5 text-left">
              <span className="flex items-center justify-between gap-2">
                <span className="truncate font-medium">{c.title}</span>
                {n > 0 && (
                  <span className="rounded-full bg-brand px-1.5 text-xs font-semibold text-on-brand tabular-nums" aria-label={t('chats.unread', { count: n })}>
                    {n}
                  </span>
                )}
              </span>
              <span className="block truncate text-xs text-muted">{c.lastMessage || c.users.map((u) => u.user.name).join(', ')}</span>
            </button>
            {c.ownerId === me.id && (
              <>
                <IconButton icon="edit" label={`${t('common.edit')} ${c.title}`} onClick={() => setEditing(c)} />
                <IconButton icon="trash" tone="danger" label={`${t('common.delete')} ${c.title}`} onClick={() => deleting.ask(c)} />
              </>
            )}
          </li>
        );
      })}
      {chats && sorted.length === 0 && <EmptyState>{t('chats.empty')}</EmptyState>}
      {!chats && <p className="py-4 text-center text-muted">{t('common.loading')}</p>}
    </ul>
  );

  const pane = current ? (
    <Conversation chat={current} synced={messages} meId={me.id} locale={i18n.language} />
  ) : (
    <EmptyState>{uuid && chats ? t('chats.notFound') : t('chats.choose')}</EmptyState>
  );

  return (
    <Page
      title={current ? `${t('chats.title')} · ${current.title}` : t('chats.title')}
      actions={
        <Button icon="plus" onClick={() => setEditing('new')}>
          {t('chats.new')}
        </Button>
      }
    >
      <div className="md:hidden">
        <Tabs
          label={t('chats.title')}
          active={tab}
          onChange={setTab}
          tabs={[
            { key: 'list', label: t('chats.list') },
            { key: 'chat', label: t('chats.conversation') },
          ]}
        />
      </div>
      <Card className="flex h-[calc(100dvh-16.5rem)] min-h-80 overflow-hidden md:h-[calc(100dvh-12rem)]">
        <div className={`w-full flex-col border-line md:flex md:w-80 md:border-r ${tab === 'list' ? 'flex' : 'hidden'}`}>{list}</div>
        <div className={`min-w-0 flex-1 flex-col md:flex ${tab === 'chat' ? 'flex' : 'hidden'}`}>{pane}</div>
      </Card>
      {editing && (
        <ChatDialog
          chat={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            setTab('chat');
            void navigate(`/chats/${saved.uuid}`);
          }}
        />
      )}
      <ConfirmDialog {...deleting.dialog} title={t('chats.deleteTitle')} message={t('chats.deleteConfirm', { title: deleting.target?.title ?? '' })} />
    </Page>
  );
}
