// The new-ticket modal (spec/02 §2.20, §5, §8): contact search from 3 characters (debounced), a
// queue (required for non-admins), the connection; POST /tickets opens it. A contact already in an
// open ticket: when someone else holds it a dialog names them and the queue, otherwise the error is
// shown and the existing ticket opens.
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isCompanyAdmin, type Contact, type Ticket } from '@zapdesk/sync';
import { AppError, api } from '../../../api/client.ts';
import { SaveCancelFooter } from '../../../forms/useSaveForm.tsx';
import { SEARCH_DEBOUNCE_MS } from '../../../hooks/scroll.ts';
import { useUser } from '../../../session/SessionProvider.tsx';
import { useSyncedList } from '../../../sync/use-synced.ts';
import { Button } from '../../../ui/Button.tsx';
import { Dialog } from '../../../ui/Dialog.tsx';
import { SelectField, TextField } from '../../../ui/Field.tsx';
import { toast } from '../../../ui/toast/store.ts';
import { toastError } from '../../../ui/toast/toast-error.ts';

type Props = { onClose: () => void; onOpened: (ticket: Pick<Ticket, 'uuid'>) => void };
type Holder = { user: string; queue: string | null };

export function NewTicketModal({ onClose, onOpened }: Props) {
  const { t } = useTranslation();
  const me = useUser();
  const connections = useSyncedList('connection') ?? [];
  const allQueues = useSyncedList('queue') ?? [];
  const admin = isCompanyAdmin(me);
  const queues = admin || me.queues.length === 0 ? allQueues : me.queues;
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<Contact[]>([]);
  const [contactId, setContactId] = useState('');
  const [queueId, setQueueId] = useState(me.queues.length === 1 ? String(me.queues[0]!.id) : '');
  const [whatsappId, setWhatsappId] = useState('');
  const [busy, setBusy] = useState(false);
  const [holder, setHolder] = useState<Holder | null>(null);
  const [errors, setErrors] = useState<{ contact?: string; queue?: string }>({});

  useEffect(() => {
    if (search.trim().length < 3) return;
    let live = true;
    const timer = setTimeout(() => {
      api.get<{ contacts: Contact[] }>('/contacts', { query: { searchParam: search.trim(), pageNumber: 1 } }).then(
        (page) => {
          if (!live) return;
          setFound(page.contacts);
          if (page.contacts.length) setContactId(String(page.contacts[0]!.id));
        },
        (err: unknown) => live && toastError(err),
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [search]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next = { contact: contactId ? undefined : t('tickets.newTicket.selectContact'), queue: queueId || admin ? undefined : t('tickets.newTicket.selectQueue') };
    setErrors(next);
    if (next.contact || next.queue) {
      toast.error((next.contact ?? next.queue)!);
      return;
    }
    setBusy(true);
    try {
      const ticket = await api.post<Ticket>('/tickets', { contactId: Number(contactId), queueId: queueId ? Number(queueId) : null, whatsappId: whatsappId ? Number(whatsappId) : null, userId: me.id, status: 'open' });
      onOpened(ticket);
    } catch (err) {
      const d = err instanceof AppError && err.code === 'ERR_OTHER_OPEN_TICKET' ? err.details : undefined;
      const user = d?.user as { name?: string } | undefined;
      if (user?.name) setHolder({ user: user.name, queue: (d?.queue as { name?: string } | null)?.name ?? null });
      else {
        toastError(err);
        if (typeof d?.uuid === 'string') onOpened({ uuid: d.uuid });
      }
    } finally {
      setBusy(false);
    }
  };

  if (holder) {
    return (
      <Dialog open size="sm" title={t('tickets.newTicket.heldTitle')} onClose={onClose} footer={<Button onClick={onClose}>{t('common.close')}</Button>}>
        <p role="alert">{holder.queue ? t('tickets.newTicket.held', { user: holder.user, queue: holder.queue }) : t('tickets.newTicket.heldNoQueue', { user: holder.user })}</p>
      </Dialog>
    );
  }

  return (
    <Dialog
      open
      title={t('tickets.newTicket.title')}
      onClose={onClose}
      onSubmit={(e) => void submit(e)}
      footer={<SaveCancelFooter busy={busy} onCancel={onClose} label={t('tickets.newTicket.open')} />}
    >
      <div className="flex flex-col gap-4">
        <TextField label={t('tickets.newTicket.contact')} hint={t('tickets.newTicket.contactHint')} type="search" value={search} onChange={(e) => setSearch(e.target.value)} autoComplete="off" />
        <SelectField
          label={t('tickets.newTicket.contact')}
          aria-label={t('tickets.newTicket.selectContact')}
          value={contactId}
          error={errors.contact}
          onChange={(e) => setContactId(e.target.value)}
          options={[{ value: '', label: '—' }, ...found.map((c) => ({ value: String(c.id), label: `${c.name} (${c.number})` }))]}
        />
        <SelectField
          label={t('tickets.newTicket.queue')}
          value={queueId}
          error={errors.queue}
          onChange={(e) => setQueueId(e.target.value)}
          options={[{ value: '', label: admin ? t('tickets.newTicket.noQueue') : '—' }, ...queues.map((q) => ({ value: String(q.id), label: q.name }))]}
        />
        <SelectField
          label={t('tickets.newTicket.connection')}
          value={whatsappId}
          onChange={(e) => setWhatsappId(e.target.value)}
          options={[{ value: '', label: t('tickets.newTicket.defaultConnection') }, ...connections.map((c) => ({ value: String(c.id), label: c.name }))]}
        />
      </div>
    </Dialog>
  );
}
