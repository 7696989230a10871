// Schedule a message for the ticket's contact (spec/02 §2.8, §5, §9): body (5 characters or more),
// send time (now plus 1 hour by default), an optional png/jpg image uploaded after the schedule.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { scheduleCreateSchema, type ScheduledMessage, type Ticket } from '@zapdesk/sync';
import { api } from '../../../api/client.ts';
import { SaveCancelFooter, useSaveForm } from '../../../forms/useSaveForm.tsx';
import { Dialog } from '../../../ui/Dialog.tsx';
import { TextField } from '../../../ui/Field.tsx';

/** YYYY-MM-DDTHH:mm in local time, one hour from now (the datetime-local input's format). */
export function defaultSendAt(now = new Date()): string {
  const d = new Date(now.getTime() + 60 * 60 * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

type Props = { ticket: Ticket; onClose: () => void };

export function ScheduleDialog({ ticket, onClose }: Props) {
  const { t } = useTranslation();
  const [body, setBody] = useState('');
  const [sendAt, setSendAt] = useState(defaultSendAt);
  const [image, setImage] = useState<File | null>(null);
  const form = useSaveForm<unknown>(onClose);

  const submit = () => {
    // The local time the user picked, as an instant with its zone.
    const instant = sendAt && Number.isFinite(Date.parse(sendAt)) ? new Date(sendAt).toISOString() : sendAt;
    const payload = { body, contactId: ticket.contactId, sendAt: instant, ticketId: ticket.id };
    void form.submit(scheduleCreateSchema, payload, async () => {
      const saved = await api.post<ScheduledMessage>('/schedules', payload);
      if (image) {
        const data = new FormData();
        data.append('file', image, image.name);
        await api.post(`/schedules/${saved.id}/media-upload`, data);
      }
      return saved;
    });
  };

  return (
    <Dialog open title={t('tickets.schedule.title')} onClose={onClose} onSubmit={submit} footer={<SaveCancelFooter busy={form.busy} onCancel={onClose} />}>
      <div className="flex flex-col gap-4">
        <label className="flex flex-col gap-1.5 text-[13px] font-medium">
          {t('tickets.schedule.body')}
          <textarea
            value={body}
            rows={4}
            onChange={(e) => setBody(e.target.value)}
            aria-invalid={form.errors.body ? true : undefined}
            className="rounded-md border border-line bg-surface px-3 py-2 text-sm font-normal focus:border-brand focus:outline-none"
          />
          {form.errors.body && <span className="text-xs font-normal text-danger">{form.errors.body}</span>}
        </label>
        <TextField label={t('tickets.schedule.sendAt')} type="datetime-local" value={sendAt} error={form.errors.sendAt} onChange={(e) => setSendAt(e.target.value)} />
        <TextField label={t('tickets.schedule.image')} type="file" accept=".png,.jpg,.jpeg,image/png,image/jpeg" onChange={(e) => setImage(e.target.files?.[0] ?? null)} />
      </div>
    </Dialog>
  );
}
