// The ticket action menu (spec/02 §2.6, §4): accept, resolve (with or without the farewell), return
// to waiting, transfer, schedule, tags, reopen, delete (admins). Accept, resolve, return and
// transfer are mutators (the screen changes at once); reopen and delete are REST calls.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Ticket } from '@zapdesk/sync';
import { api } from '../../../api/client.ts';
import { useUser } from '../../../session/SessionProvider.tsx';
import { useReplicache } from '../../../sync/SyncProvider.tsx';
import { Button } from '../../../ui/Button.tsx';
import { ConfirmDialog } from '../../../ui/Dialog.tsx';
import { Icon } from '../../../ui/Icon.tsx';
import { Menu, type MenuEntry } from '../../../ui/Menu.tsx';
import { toast } from '../../../ui/toast/store.ts';
import { toastError } from '../../../ui/toast/toast-error.ts';
import { ScheduleDialog } from './ScheduleDialog.tsx';
import { TagsDialog } from './TagsDialog.tsx';
import { ticketActions } from './ticket-actions.ts';
import { TransferDialog } from './TransferDialog.tsx';

type Props = { ticket: Ticket; onReopened: (ticket: Ticket) => void };
type Open = 'transfer' | 'schedule' | 'tags' | 'delete' | null;

export function TicketActions({ ticket, onReopened }: Props) {
  const { t } = useTranslation();
  const me = useUser();
  const rep = useReplicache();
  const navigate = useNavigate();
  const [open, setOpen] = useState<Open>(null);
  const [busy, setBusy] = useState(false);
  const can = ticketActions(ticket, me);
  const toList = () => navigate('/tickets');

  const accept = () => void rep?.mutate.acceptTicket({ ticketId: ticket.id, userId: me.id });
  const resolve = (farewell: boolean) => {
    void rep?.mutate.resolveTicket({ ticketId: ticket.id, userId: me.id, farewell });
    toList();
  };
  const giveBack = () => {
    void rep?.mutate.returnTicket({ ticketId: ticket.id });
    toList();
  };
  const reopen = async () => {
    setBusy(true);
    try {
      onReopened(await api.put<Ticket>(`/tickets/${ticket.id}`, { status: 'open' }));
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    setBusy(true);
    try {
      await api.delete(`/tickets/${ticket.id}`);
      toast.success(t('common.deleted'));
      toList();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const more: MenuEntry[] = [];
  if (can.has('resolve')) {
    more.push({ key: 'resolve-farewell', label: t('tickets.actions.resolveFarewell'), onSelect: () => resolve(true) });
    more.push({ key: 'resolve-silent', label: t('tickets.actions.resolveSilent'), onSelect: () => resolve(false) });
  }
  if (can.has('return')) more.push({ key: 'return', label: t('tickets.actions.return'), onSelect: giveBack });
  if (can.has('transfer')) more.push({ key: 'transfer', label: t('tickets.actions.transfer'), onSelect: () => setOpen('transfer') });
  if (can.has('schedule')) more.push({ key: 'schedule', label: t('tickets.actions.schedule'), onSelect: () => setOpen('schedule') });
  if (can.has('tags')) more.push({ key: 'tags', label: t('tickets.actions.tags'), onSelect: () => setOpen('tags') });
  if (can.has('delete')) more.push({ key: 'delete', label: t('tickets.actions.delete'), onSelect: () => setOpen('delete') });

  return (
    <div className="flex items-center gap-1">
      {can.has('accept') && (
        <Button onClick={accept} icon="check">
          {t('tickets.actions.accept')}
        </Button>
      )}
      {can.has('reopen') && (
        <Button onClick={() => void reopen()} icon="undo" busy={busy}>
          {t('tickets.actions.reopen')}
        </Button>
      )}
      {can.has('return') && (
        <Button variant="ghost" className="max-md:hidden" onClick={giveBack} icon="undo">
          {t('tickets.actions.return')}
        </Button>
      )}
      {can.has('resolve') && can.has('write') && (
        <Button variant="secondary" className="max-sm:hidden" onClick={() => resolve(true)} icon="check">
          {t('tickets.actions.resolve')}
        </Button>
      )}
      {more.length > 0 && (
        <Menu
          label={t('tickets.actions.menu')}
          entries={more}
          trigger={<Icon name="more" className="size-5" />}
          triggerClassName="inline-flex size-9 items-center justify-center rounded-md text-muted hover:bg-raised hover:text-ink"
        />
      )}
      {open === 'transfer' && <TransferDialog ticket={ticket} onClose={() => setOpen(null)} onDone={toList} />}
      {open === 'schedule' && <ScheduleDialog ticket={ticket} onClose={() => setOpen(null)} />}
      {open === 'tags' && <TagsDialog ticket={ticket} onClose={() => setOpen(null)} />}
      <ConfirmDialog
        open={open === 'delete'}
        title={t('tickets.actions.deleteTitle')}
        message={t('tickets.actions.deleteConfirm', { name: ticket.contact.name })}
        busy={busy}
        onConfirm={() => void remove()}
        onClose={() => setOpen(null)}
      />
    </div>
  );
}
