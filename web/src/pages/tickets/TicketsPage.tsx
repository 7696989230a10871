// /tickets and /tickets/{uuid} (spec/01 §2, spec/02 §2): the manager on the left and the chat on the
// right on wide screens (a logo until a ticket is chosen); on narrow screens two tabs, the ticket
// and the attendance list. Everything open or pending reads the synced tickets, so it is instant
// and live; a closed ticket comes from REST. A ticket one may not see (or that is gone) leads back
// to /tickets with a toast.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import type { Ticket } from '@zapdesk/sync';
import { AppError } from '../../api/client.ts';
import { useMedia } from '../../layout/use-media.ts';
import { useUser } from '../../session/SessionProvider.tsx';
import { useReplicache } from '../../sync/SyncProvider.tsx';
import { useSyncedList } from '../../sync/use-synced.ts';
import { Button } from '../../ui/Button.tsx';
import { Logo } from '../../ui/Logo.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
import { toast } from '../../ui/toast/store.ts';
import { ChatView } from './chat/ChatView.tsx';
import { NewTicketModal } from './manager/NewTicketModal.tsx';
import { TicketManager } from './manager/TicketManager.tsx';
import { SpyDialog } from './SpyDialog.tsx';
import { useTicketByUuid } from './use-ticket-data.ts';
import './strings.ts';

export const SPLIT_QUERY = '(min-width: 768px)';

export function Component() {
  const { t } = useTranslation();
  const { uuid } = useParams();
  const navigate = useNavigate();
  const me = useUser();
  const rep = useReplicache();
  const wide = useMedia(SPLIT_QUERY);
  const tickets = useSyncedList('ticket');
  const contacts = useSyncedList('contact');
  const lookup = useTicketByUuid(uuid, tickets);
  const [reopened, setReopened] = useState<Ticket | null>(null);
  const [spying, setSpying] = useState<Ticket | null>(null);
  const [creating, setCreating] = useState(false);
  const [narrowTab, setNarrowTab] = useState<'ticket' | 'list'>(uuid ? 'ticket' : 'list');

  const ticket = lookup.synced ? lookup.ticket : reopened?.uuid === uuid ? reopened : lookup.ticket;

  useEffect(() => {
    if (!lookup.missing) return;
    const denied = lookup.missing instanceof AppError && lookup.missing.code === 'ERR_NO_PERMISSION';
    toast.error(t(denied ? 'tickets.unauthorized' : 'tickets.deletedTicket'));
    void navigate('/tickets', { replace: true });
  }, [lookup.missing, navigate, t]);

  useEffect(() => setNarrowTab(uuid ? 'ticket' : 'list'), [uuid]);

  const open = (target: Pick<Ticket, 'uuid'>) => void navigate(`/tickets/${target.uuid}`);
  const accept = (target: Ticket) => {
    void rep?.mutate.acceptTicket({ ticketId: target.id, userId: me.id });
    open(target);
  };

  const manager = <TicketManager tickets={tickets} selectedUuid={uuid} narrow={!wide} onOpen={open} onAccept={accept} onSpy={setSpying} onNewTicket={() => setCreating(true)} />;
  const chat = ticket ? (
    <ChatView key={ticket.id} ticket={ticket} synced={lookup.synced} contact={contacts?.find((c) => c.id === ticket.contactId)} onBack={wide ? undefined : () => void navigate('/tickets')} onReopened={setReopened} />
  ) : (
    <div className="flex flex-1 flex-col items-center justify-center gap-3 bg-raised/50 p-6 text-center text-muted">
      <Logo />
      <p>{t('tickets.list.pick')}</p>
      {!wide && <Button onClick={() => setNarrowTab('list')}>{t('tickets.narrow.select')}</Button>}
    </div>
  );

  return (
    <div className="flex h-full min-h-0">
      <h1 className="sr-only">{t('tickets.title')}</h1>
      {wide ? (
        <>
          <div className="flex w-[22rem] shrink-0 flex-col border-r border-line bg-surface lg:w-[26rem]">{manager}</div>
          <div className="flex min-w-0 flex-1 flex-col">{chat}</div>
        </>
      ) : (
        <div className="flex min-w-0 flex-1 flex-col bg-surface">
          <Tabs
            label={t('tickets.narrow.label')}
            active={narrowTab}
            onChange={setNarrowTab}
            tabs={[
              { key: 'ticket', label: t('tickets.narrow.ticket') },
              { key: 'list', label: t('tickets.narrow.list') },
            ]}
          />
          {narrowTab === 'ticket' ? <div className="flex min-h-0 flex-1 flex-col">{chat}</div> : manager}
        </div>
      )}
      {spying && <SpyDialog ticket={spying} onClose={() => setSpying(null)} />}
      {creating && (
        <NewTicketModal
          onClose={() => setCreating(false)}
          onOpened={(created) => {
            setCreating(false);
            open(created);
          }}
        />
      )}
    </div>
  );
}
