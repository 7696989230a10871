// The ticket's tags (POST /tags/sync with the chosen set); the synced ticket shows them after the poke.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { tagSyncSchema, type Ticket } from '@zapdesk/sync';
import { api } from '../../../api/client.ts';
import { SaveCancelFooter, useSaveForm } from '../../../forms/useSaveForm.tsx';
import { useSyncedList } from '../../../sync/use-synced.ts';
import { Dialog } from '../../../ui/Dialog.tsx';

export function TagsDialog({ ticket, onClose }: { ticket: Ticket; onClose: () => void }) {
  const { t } = useTranslation();
  const tags = useSyncedList('tag') ?? [];
  const [chosen, setChosen] = useState(() => new Set(ticket.tags.map((tag) => tag.id)));
  const form = useSaveForm<unknown>(onClose);
  const toggle = (id: number) => setChosen((prev) => (prev.delete(id) ? new Set(prev) : new Set(prev.add(id))));
  const submit = () => {
    const body = { ticketId: ticket.id, tags: [...chosen].map((id) => ({ id })) };
    void form.submit(tagSyncSchema, body, () => api.post('/tags/sync', body));
  };
  return (
    <Dialog open title={t('tickets.tagsDialog.title')} onClose={onClose} onSubmit={submit} size="sm" footer={<SaveCancelFooter busy={form.busy} onCancel={onClose} />}>
      {tags.length === 0 && <p className="text-muted">{t('tickets.tagsDialog.none')}</p>}
      <ul className="flex flex-col gap-1">
        {tags.map((tag) => (
          <li key={tag.id}>
            <label className="flex cursor-pointer items-center gap-2 rounded px-1 py-1.5 hover:bg-raised">
              <input type="checkbox" checked={chosen.has(tag.id)} onChange={() => toggle(tag.id)} />
              <span className="size-3 rounded-full" style={{ backgroundColor: tag.color }} aria-hidden="true" />
              {tag.name}
            </label>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
