// The contact drawer (spec/02 §2.4, §9: 320 px): name, number (telephone link), email (mail link),
// the edit form (the contacts page's modal), the ticket's flow run and its answers (FlowSection), the ticket's notes (synced ticketNote; add with at least 2 characters, delete) and extra info.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ticketNoteCreateSchema, type Contact, type Ticket } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { useSaveForm } from '../../forms/useSaveForm.tsx';
import { useSyncedList } from '../../sync/use-synced.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import { toast } from '../../ui/toast/store.ts';
import { toastError } from '../../ui/toast/toast-error.ts';
import { ContactModal } from '../contacts/ContactModal.tsx';
import '../contacts/strings.ts';
import { FlowSection } from './FlowSection.tsx';
import { Avatar } from './manager/TicketItem.tsx';

type Props = { ticket: Ticket; contact: Contact | undefined; onClose: () => void };

export function ContactDrawer({ ticket, contact, onClose }: Props) {
  const { t } = useTranslation();
  const notes = (useSyncedList('ticketNote') ?? []).filter((n) => n.ticketId === ticket.id && n.contactId === ticket.contactId).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const [note, setNote] = useState('');
  const [editing, setEditing] = useState(false);
  const form = useSaveForm<unknown>(() => setNote(''));
  const c = contact ?? { ...ticket.contact, extraInfo: [] };

  const addNote = () => {
    const body = { note, ticketId: ticket.id, contactId: ticket.contactId };
    void form.submit(ticketNoteCreateSchema, body, async () => {
      const saved = await api.post('/ticket-notes', body);
      toast.success(t('tickets.contact.noteAdded'));
      return saved;
    });
  };
  const deleteNote = async (id: number) => {
    try {
      await api.delete(`/ticket-notes/${id}`);
      toast.success(t('tickets.contact.noteDeleted'));
    } catch (err) {
      toastError(err);
    }
  };

  return (
    <aside aria-label={t('tickets.contact.title')} className="absolute inset-y-0 right-0 z-30 flex w-full max-w-[320px] flex-col border-l border-line bg-surface shadow-xl lg:static lg:shadow-none">
      <div className="flex h-14 items-center justify-between border-b border-line px-3">
        <h2 className="font-semibold">{t('tickets.contact.title')}</h2>
        <IconButton icon="x" label={t('tickets.contact.close')} onClick={onClose} />
      </div>
      <div className="flex-1 overflow-y-auto p-4">
        <div className="flex flex-col items-center gap-2 text-center">
          <Avatar name={c.name} url={c.profilePicUrl} size="size-20 text-2xl" />
          <p className="text-lg font-semibold">{c.name}</p>
          <a href={`tel:${c.number}`} className="text-sm text-brand">
            {c.number}
          </a>
          {c.email && (
            <a href={`mailto:${c.email}`} className="text-sm text-brand">
              {c.email}
            </a>
          )}
          {contact && (
            <Button variant="secondary" icon="edit" onClick={() => setEditing(true)}>
              {t('common.edit')}
            </Button>
          )}
        </div>

        <FlowSection ticket={ticket} />

        <section className="mt-6">
          <h3 className="mb-2 text-sm font-semibold">{t('tickets.contact.notes')}</h3>
          <form
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              addNote();
            }}
            className="flex flex-col gap-2"
          >
            <label className="sr-only" htmlFor={`note-${ticket.id}`}>
              {t('tickets.contact.note')}
            </label>
            <textarea
              id={`note-${ticket.id}`}
              value={note}
              rows={3}
              placeholder={t('tickets.contact.note')}
              onChange={(e) => setNote(e.target.value)}
              aria-invalid={form.errors.note ? true : undefined}
              className="rounded-md border border-line bg-canvas px-3 py-2 text-sm focus:border-brand focus:outline-none"
            />
            {form.errors.note && <p className="text-xs text-danger">{form.errors.note}</p>}
            <Button type="submit" busy={form.busy} className="self-end">
              {t('tickets.contact.addNote')}
            </Button>
          </form>
          {notes.length === 0 && <p className="mt-2 text-sm text-muted">{t('tickets.contact.noNotes')}</p>}
          <ul className="mt-2 flex flex-col gap-2">
            {notes.map((n) => (
              <li key={n.id} className="rounded-md border border-line bg-raised p-2 text-sm">
                <div className="flex items-start justify-between gap-2">
                  <p className="break-words whitespace-pre-wrap">{n.note}</p>
                  <IconButton icon="trash" tone="danger" label={t('tickets.contact.deleteNote')} onClick={() => void deleteNote(n.id)} className="size-7" />
                </div>
                <p className="mt-1 text-xs text-muted">
                  {n.user?.name} · {new Date(n.createdAt).toLocaleString()}
                </p>
              </li>
            ))}
          </ul>
        </section>

        <section className="mt-6">
          <h3 className="mb-2 text-sm font-semibold">{t('tickets.contact.extraInfo')}</h3>
          {c.extraInfo.length === 0 ? (
            <p className="text-sm text-muted">{t('tickets.contact.noExtraInfo')}</p>
          ) : (
            <dl className="flex flex-col gap-1.5 text-sm">
              {c.extraInfo.map((x) => (
                <div key={x.id ?? x.name} className="rounded-md border border-line px-2 py-1.5">
                  <dt className="text-xs text-muted">{x.name}</dt>
                  <dd className="break-words">{x.value}</dd>
                </div>
              ))}
            </dl>
          )}
        </section>
      </div>
      {/* The synced contact refreshes itself after the save's poke. */}
      {editing && contact && <ContactModal contact={contact} onClose={() => setEditing(false)} onSaved={() => setEditing(false)} />}
    </aside>
  );
}
