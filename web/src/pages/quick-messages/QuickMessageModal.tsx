// Create or edit a quick message (spec/02 §3, §5): shortcode required, message, optional
// attachment, geral (shared with the company) or private to its author.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { quickMessageCreateSchema, type QuickMessage } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { SaveCancelFooter, useSaveForm } from '../../forms/useSaveForm.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Switch, TextAreaField, TextField } from '../../ui/Field.tsx';
import { AttachmentField } from './AttachmentField.tsx';
import { applyMediaChange, type MediaChange } from './media.ts';

type Props = { quick: QuickMessage | null; onClose: () => void };

export function QuickMessageModal({ quick, onClose }: Props) {
  const { t } = useTranslation();
  const [values, setValues] = useState({ shortcode: quick?.shortcode ?? '', message: quick?.message ?? '', geral: quick?.geral ?? false });
  const [media, setMedia] = useState<MediaChange>({ kind: 'keep' });
  const { errors, busy, submit } = useSaveForm<QuickMessage>(() => onClose());

  const save = async () => {
    await submit(quickMessageCreateSchema, values, async () => {
      const saved = quick ? await api.put<QuickMessage>(`/quick-messages/${quick.id}`, values) : await api.post<QuickMessage>('/quick-messages', values);
      return (await applyMediaChange<QuickMessage>('/quick-messages', saved.id, media, { typeArch: 'quickMessage' })) ?? saved;
    });
  };

  return (
    <Dialog open title={quick ? t('quick-messages.edit') : t('quick-messages.new')} onClose={onClose} onSubmit={() => void save()} footer={<SaveCancelFooter busy={busy} onCancel={onClose} />}>
      <div className="flex flex-col gap-4">
        <TextField label={t('quick-messages.shortcode')} name="shortcode" hint={t('quick-messages.shortcodeHint')} value={values.shortcode} error={errors.shortcode} onChange={(e) => setValues((v) => ({ ...v, shortcode: e.target.value }))} />
        <TextAreaField label={t('quick-messages.message')} name="message" rows={5} value={values.message} error={errors.message} onChange={(e) => setValues((v) => ({ ...v, message: e.target.value }))} />
        <AttachmentField label={t('quick-messages.attachment')} current={quick?.mediaName ?? null} change={media} onChange={setMedia} />
        <Switch label={t('quick-messages.geral')} checked={values.geral} onChange={(geral) => setValues((v) => ({ ...v, geral }))} />
      </div>
    </Dialog>
  );
}
