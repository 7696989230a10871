// A ticket's chat: header (contact, queue and holder, the action menu), the message list and the
// input; the contact drawer opens from the header. Writing is allowed only in an open ticket one
// holds (admins in any open ticket), as the server enforces. A failed message is sent again through
// the resendMessage mutator; one the server may have sent already (unconfirmed) only after asking,
// since WhatsApp would deliver it twice. While the holder has it open and in view, what arrives
// is read (reading.ts).
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Contact, Message, Ticket } from '@zapdesk/sync';
import { api } from '../../../api/client.ts';
import { useUser } from '../../../session/SessionProvider.tsx';
import { useReplicache } from '../../../sync/SyncProvider.tsx';
import { IconButton } from '../../../ui/Button.tsx';
import { ConfirmDialog } from '../../../ui/Dialog.tsx';
import { toastError } from '../../../ui/toast/toast-error.ts';
import { ticketActions } from '../actions/ticket-actions.ts';
import { TicketActions } from '../actions/TicketActions.tsx';
import { ContactDrawer } from '../ContactDrawer.tsx';
import { useDeclareReading, useReadingTicket } from '../reading.ts';
import { Avatar } from '../manager/TicketItem.tsx';
import { MessageInput } from './MessageInput.tsx';
import { MessageList } from './MessageList.tsx';
import { sendMarkOf } from './messages.ts';
import { useChatMessages } from './use-chat-messages.ts';

type Props = { ticket: Ticket; synced: boolean; contact: Contact | undefined; onBack?: () => void; onReopened: (t: Ticket) => void };

export function ChatView({ ticket, synced, contact, onBack, onReopened }: Props) {
  const { t } = useTranslation();
  const me = useUser();
  const chat = useChatMessages(ticket.id, synced);
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [drawer, setDrawer] = useState(false);
  const [confirmResend, setConfirmResend] = useState<Message | null>(null);
  const rep = useReplicache();
  const actions = ticketActions(ticket, me);
  const writable = actions.has('write');

  // The holder reading their open ticket reads what arrives: the server counts it read at once.
  useDeclareReading(synced && ticket.status === 'open' && ticket.userId === me.id ? ticket.id : null);
  const reading = useReadingTicket() === ticket.id;
  useEffect(() => {
    if (reading && ticket.unreadMessages > 0) void rep?.mutate.markTicketRead({ ticketId: ticket.id });
  }, [reading, ticket.unreadMessages, ticket.id, rep]);

  const remove = async (m: Message) => {
    try {
      await api.delete(`/messages/${m.id}`);
    } catch (err) {
      toastError(err);
    }
  };

  const resend = (m: Message) => {
    rep?.mutate.resendMessage({ ticketId: m.ticketId, messageId: m.id }).catch(toastError);
  };
  const askResend = (m: Message) => {
    const mark = sendMarkOf(m);
    if (mark?.kind === 'failed' && mark.unconfirmed) setConfirmResend(m);
    else resend(m);
  };

  return (
    <div className="relative flex min-h-0 flex-1">
      <section className="flex min-w-0 flex-1 flex-col" aria-label={ticket.contact.name} data-testid="chat" data-ticket-status={ticket.status}>
        <header className="flex h-14 shrink-0 items-center gap-2 border-b border-line bg-surface px-2 sm:px-3">
          {onBack && <IconButton icon="chevronLeft" label={t('tickets.chat.back')} onClick={onBack} />}
          <button type="button" onClick={() => setDrawer((d) => !d)} aria-expanded={drawer} aria-label={t('tickets.actions.contact')} className="flex min-w-0 flex-1 items-center gap-2.5 rounded-md text-left hover:bg-raised">
            <Avatar name={ticket.contact.name} url={ticket.contact.profilePicUrl} size="size-9 text-sm" />
            <span className="min-w-0">
              <span className="block truncate font-semibold">{ticket.contact.name}</span>
              <span className="block truncate text-xs text-muted">
                #{ticket.id} · {ticket.queue?.name ?? t('tickets.list.noQueue')}
                {ticket.user ? ` · ${ticket.user.name}` : ''}
              </span>
            </span>
          </button>
          <TicketActions ticket={ticket} onReopened={onReopened} />
        </header>
        <MessageList
          messages={chat.messages}
          hasOlder={chat.hasOlder}
          loadingOlder={chat.loadingOlder}
          closed={ticket.status === 'closed'}
          contactName={ticket.contact.name}
          onLoadOlder={chat.loadOlder}
          onReply={writable ? setReplyTo : undefined}
          onDelete={writable ? (m) => void remove(m) : undefined}
          onResend={actions.has('resend') && rep ? askResend : undefined}
        />
        <MessageInput key={ticket.id} ticket={ticket} enabled={writable} replyTo={replyTo} onCancelReply={() => setReplyTo(null)} />
      </section>
      {drawer && <ContactDrawer ticket={ticket} contact={contact} onClose={() => setDrawer(false)} />}
      <ConfirmDialog
        open={confirmResend !== null}
        title={t('tickets.chat.failed.confirmTitle')}
        message={t('tickets.chat.failed.confirmMessage', { name: ticket.contact.name })}
        confirmLabel={t('tickets.chat.failed.confirmResend')}
        onConfirm={() => {
          if (confirmResend) resend(confirmResend);
          setConfirmResend(null);
        }}
        onClose={() => setConfirmResend(null)}
      />
    </div>
  );
}
