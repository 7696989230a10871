// Create or edit a help video (super-admin): a YouTube id or link, title, description, extra link.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { helpCreateSchema, helpUpdateSchema, type Help } from '@zapdesk/sync';
import { api } from '../../../api/client.ts';
import { SaveCancelFooter, useSaveForm } from '../../../forms/useSaveForm.tsx';
import { Dialog } from '../../../ui/Dialog.tsx';
import { TextField } from '../../../ui/Field.tsx';

type Props = { help: Help | null; onClose: () => void; onSaved: (help: Help) => void };

export function HelpModal({ help, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [values, setValues] = useState({ title: help?.title ?? '', video: help?.video ?? '', description: help?.description ?? '', link: help?.link ?? '' });
  const { errors, busy, submit } = useSaveForm<Help>(onSaved);
  const set = (field: keyof typeof values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));

  const save = async () => {
    await submit(help ? helpUpdateSchema : helpCreateSchema, values, () => (help ? api.put<Help>(`/helps/${help.id}`, values) : api.post<Help>('/helps', values)));
  };

  return (
    <Dialog
      open
      title={help ? t('helpAdmin.edit') : t('helpAdmin.new')}
      onClose={onClose}
      onSubmit={() => void save()}
      footer={<SaveCancelFooter busy={busy} onCancel={onClose} />}
    >
      <div className="grid gap-4">
        <TextField label={t('helpAdmin.title')} name="title" autoFocus value={values.title} error={errors.title} onChange={set('title')} />
        <TextField label={t('helpAdmin.video')} name="video" placeholder="https://youtu.be/…" value={values.video} error={errors.video} onChange={set('video')} />
        <div className="flex flex-col gap-1.5">
          <label htmlFor="help-description" className="text-[13px] font-medium">
            {t('helpAdmin.description')}
          </label>
          <textarea
            id="help-description"
            rows={4}
            value={values.description}
            onChange={set('description')}
            className="block w-full rounded-md border border-line bg-surface px-3 py-2 text-sm focus:border-brand focus:ring-2 focus:ring-brand/25 focus:outline-none"
          />
        </div>
        <TextField label={t('helpAdmin.link')} name="link" type="url" value={values.link} error={errors.link} onChange={set('link')} />
      </div>
    </Dialog>
  );
}
