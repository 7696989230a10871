// Transfer (spec/02 §2.7, §4, §5): a queue (required), optionally a user (search from 3 characters,
// 500 ms debounce) and the connection (required). The transferTicket mutator moves it at once;
// with a queue and no user it waits in that queue.
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Ticket } from '@zapdesk/sync';
import { SEARCH_DEBOUNCE_MS } from '../../../hooks/scroll.ts';
import { useReplicache } from '../../../sync/SyncProvider.tsx';
import { useSyncedList } from '../../../sync/use-synced.ts';
import { SaveCancelFooter } from '../../../forms/useSaveForm.tsx';
import { Dialog } from '../../../ui/Dialog.tsx';
import { SelectField, TextField } from '../../../ui/Field.tsx';

type Props = { ticket: Ticket; onClose: () => void; onDone: () => void };

export function TransferDialog({ ticket, onClose, onDone }: Props) {
  const { t } = useTranslation();
  const rep = useReplicache();
  const queues = useSyncedList('queue') ?? [];
  const users = useSyncedList('user') ?? [];
  const connections = useSyncedList('connection') ?? [];
  const [queueId, setQueueId] = useState('');
  const [userId, setUserId] = useState('');
  const [whatsappId, setWhatsappId] = useState(String(ticket.whatsappId ?? ''));
  const [search, setSearch] = useState('');
  const [term, setTerm] = useState('');
  const [errors, setErrors] = useState<{ queue?: string; connection?: string }>({});

  useEffect(() => {
    const timer = setTimeout(() => setTerm(search.trim().toLowerCase()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  // Users of the chosen queue; narrowed by name once 3 characters are typed.
  const candidates = useMemo(() => {
    const inQueue = users.filter((u) => !queueId || u.queues.some((q) => q.id === Number(queueId)));
    return term.length >= 3 ? inQueue.filter((u) => u.name.toLowerCase().includes(term)) : inQueue;
  }, [users, queueId, term]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next = { queue: queueId ? undefined : t('validation.required'), connection: whatsappId ? undefined : t('validation.required') };
    setErrors(next);
    if (next.queue || next.connection || !rep) return;
    await rep.mutate.transferTicket({ ticketId: ticket.id, queueId: Number(queueId), userId: userId ? Number(userId) : null, whatsappId: Number(whatsappId) });
    onDone();
  };

  return (
    <Dialog
      open
      title={t('tickets.transfer.title')}
      onClose={onClose}
      onSubmit={(e) => void submit(e)}
      footer={<SaveCancelFooter busy={false} onCancel={onClose} label={t('tickets.transfer.submit')} />}
    >
      <div className="flex flex-col gap-4">
        <SelectField
          label={t('tickets.transfer.queue')}
          value={queueId}
          error={errors.queue}
          onChange={(e) => {
            setQueueId(e.target.value);
            setUserId('');
          }}
          options={[{ value: '', label: t('tickets.transfer.pickQueue') }, ...queues.map((q) => ({ value: String(q.id), label: q.name }))]}
        />
        <TextField label={t('tickets.transfer.user')} hint={t('tickets.transfer.userHint')} type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        <SelectField
          label={t('tickets.transfer.user')}
          value={userId}
          onChange={(e) => setUserId(e.target.value)}
          options={[{ value: '', label: t('tickets.transfer.anyUser') }, ...candidates.map((u) => ({ value: String(u.id), label: u.name }))]}
        />
        <SelectField
          label={t('tickets.transfer.connection')}
          value={whatsappId}
          error={errors.connection}
          onChange={(e) => setWhatsappId(e.target.value)}
          options={[{ value: '', label: '—' }, ...connections.map((c) => ({ value: String(c.id), label: c.name }))]}
        />
      </div>
    </Dialog>
  );
}
