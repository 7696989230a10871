// Admin peek (spec/02 §2.3): a ticket's conversation read-only, without accepting it.
import { useTranslation } from 'react-i18next';
import type { Ticket } from '@zapdesk/sync';
import { Dialog } from '../../ui/Dialog.tsx';
import { MessageList } from './chat/MessageList.tsx';
import { useChatMessages } from './chat/use-chat-messages.ts';

export function SpyDialog({ ticket, onClose }: { ticket: Ticket; onClose: () => void }) {
  const { t } = useTranslation();
  const chat = useChatMessages(ticket.id, true);
  return (
    <Dialog open size="lg" title={t('tickets.spy.title', { name: ticket.contact.name })} onClose={onClose}>
      <p className="mb-2 text-xs text-muted">{t('tickets.spy.readOnly')}</p>
      <div className="flex h-[60vh] flex-col overflow-hidden rounded-md border border-line">
        <MessageList messages={chat.messages} hasOlder={chat.hasOlder} loadingOlder={chat.loadingOlder} closed={ticket.status === 'closed'} contactName={ticket.contact.name} onLoadOlder={chat.loadOlder} />
      </div>
    </Dialog>
  );
}
