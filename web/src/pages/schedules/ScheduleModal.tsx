// Create or edit a scheduled message (spec/02 §2.8, §4, §5): contact and send time required, body at
// least 5 characters, an optional png/jpg/jpeg image. The title reads the status ('Erro de Envio'
// for ERRO); a schedule already sent cannot be saved again.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { scheduleCreateSchema, TEMPLATE_VARIABLES, type ContactOption, type ScheduledMessage } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { SaveCancelFooter, useSaveForm } from '../../forms/useSaveForm.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { TextAreaField, TextField } from '../../ui/Field.tsx';
import { AttachmentField } from '../quick-messages/AttachmentField.tsx';
import { applyMediaChange, type MediaChange } from '../quick-messages/media.ts';
import { defaultSendAt, localInputToIso, toLocalInput } from './calendar.ts';
import { ContactPicker } from './ContactPicker.tsx';

type Props = { schedule: ScheduledMessage | null; initialContact?: ContactOption | null; onClose: () => void };

const IMAGE_TYPES = /\.(png|jpe?g)$/i;
// The hint names the variables literally: each placeholder is filled with its own name in braces.
const VARIABLE_NAMES = Object.fromEntries(TEMPLATE_VARIABLES.map((v) => [v, `{{${v}}}`]));

export function ScheduleModal({ schedule, initialContact = null, onClose }: Props) {
  const { t } = useTranslation();
  const [contact, setContact] = useState<ContactOption | null>(schedule?.contact ?? initialContact);
  const [sendAt, setSendAt] = useState(schedule ? toLocalInput(new Date(schedule.sendAt)) : defaultSendAt());
  const [body, setBody] = useState(schedule?.body ?? '');
  const [media, setMedia] = useState<MediaChange>({ kind: 'keep' });
  const [mediaError, setMediaError] = useState<string | undefined>();
  const { errors, busy, submit } = useSaveForm<ScheduledMessage>(() => onClose());
  const sent = Boolean(schedule?.sentAt);

  const title = !schedule ? t('schedules.new') : schedule.status === 'ERRO' ? t('schedules.titleError') : t('schedules.titleStatus', { status: t(`schedules.status.${schedule.status}`, { defaultValue: schedule.status }) });

  const save = async () => {
    if (media.kind === 'replace' && !IMAGE_TYPES.test(media.file.name)) {
      setMediaError(t('schedules.imageOnly'));
      return;
    }
    setMediaError(undefined);
    const payload = { body, contactId: contact?.id ?? '', sendAt: localInputToIso(sendAt) };
    await submit(scheduleCreateSchema, payload, async () => {
      const saved = schedule ? await api.put<ScheduledMessage>(`/schedules/${schedule.id}`, payload) : await api.post<ScheduledMessage>('/schedules', payload);
      return (await applyMediaChange<ScheduledMessage>('/schedules', saved.id, media)) ?? saved;
    });
  };

  return (
    <Dialog
      open
      title={title}
      onClose={onClose}
      onSubmit={() => void save()}
      footer={
        sent ? (
          <Button variant="secondary" onClick={onClose}>
            {t('common.close')}
          </Button>
        ) : (
          <SaveCancelFooter busy={busy} onCancel={onClose} />
        )
      }
    >
      <div className="flex flex-col gap-4">
        <ContactPicker value={contact} onChange={setContact} error={errors.contactId} />
        <TextField label={t('schedules.sendAt')} name="sendAt" type="datetime-local" value={sendAt} error={errors.sendAt} onChange={(e) => setSendAt(e.target.value)} />
        <TextAreaField label={t('schedules.body')} name="body" rows={5} value={body} error={errors.body} hint={t('schedules.variables', VARIABLE_NAMES)} onChange={(e) => setBody(e.target.value)} />
        <AttachmentField label={t('schedules.image')} accept=".png,.jpg,.jpeg,image/png,image/jpeg" current={schedule?.mediaName ?? null} change={media} onChange={setMedia} error={mediaError} />
        {schedule?.status === 'ERRO' && schedule.error && <p className="rounded-md bg-danger-soft px-3 py-2 text-sm text-danger">{schedule.error}</p>}
        {sent && schedule?.sentAt && <p className="text-sm text-muted">{t('schedules.sentAt', { date: new Date(schedule.sentAt).toLocaleString() })}</p>}
      </div>
    </Dialog>
  );
}
