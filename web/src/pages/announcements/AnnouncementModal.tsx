// Create or edit an announcement (spec/02 §5): title and text required, priority 1-3, status, and
// an optional png/jpeg picture uploaded after the record is saved.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { announcementCreateSchema, announcementUpdateSchema, type Announcement } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { SaveCancelFooter, useSaveForm } from '../../forms/useSaveForm.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { SelectField, Switch, TextAreaField, TextField } from '../../ui/Field.tsx';
import { toast } from '../../ui/toast/store.ts';
import { isAllowedPicture, priorityDot } from './priority.ts';
import './strings.ts';

type Props = { announcement: Announcement | null; onClose: () => void };

export function AnnouncementModal({ announcement, onClose }: Props) {
  const { t } = useTranslation();
  const [values, setValues] = useState({
    title: announcement?.title ?? '',
    text: announcement?.text ?? '',
    priority: String(announcement?.priority ?? 3),
    status: announcement?.status ?? true,
  });
  const [file, setFile] = useState<File | null>(null);
  const [dropMedia, setDropMedia] = useState(false);
  const { errors, busy, submit } = useSaveForm<Announcement>(onClose);
  const keptMedia = announcement?.mediaName && !dropMedia ? announcement.mediaName : null;

  const save = () =>
    submit(announcement ? announcementUpdateSchema : announcementCreateSchema, values, async () => {
      const saved = announcement ? await api.put<Announcement>(`/announcements/${announcement.id}`, values) : await api.post<Announcement>('/announcements', values);
      if (file) {
        const data = new FormData();
        data.append('file', file, file.name);
        return api.post<Announcement>(`/announcements/${saved.id}/media-upload`, data);
      }
      if (dropMedia && announcement?.mediaPath) return api.delete<Announcement>(`/announcements/${saved.id}/media-upload`);
      return saved;
    });

  return (
    <Dialog open title={announcement ? t('announcements.edit') : t('announcements.new')} onClose={onClose} onSubmit={() => void save()} footer={<SaveCancelFooter busy={busy} onCancel={onClose} />}>
      <div className="grid gap-4">
        <TextField label={t('announcements.titleField')} name="title" autoFocus value={values.title} error={errors.title} onChange={(e) => setValues((v) => ({ ...v, title: e.target.value }))} />
        <TextAreaField label={t('announcements.text')} name="text" rows={5} value={values.text} error={errors.text} onChange={(e) => setValues((v) => ({ ...v, text: e.target.value }))} />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label={t('announcements.priority')}
            name="priority"
            value={values.priority}
            onChange={(e) => setValues((v) => ({ ...v, priority: e.target.value }))}
            options={['1', '2', '3'].map((p) => ({ value: p, label: `${p} · ${t(`announcements.priorities.${p}`)}` }))}
          />
          <div className="flex flex-col justify-end">
            <Switch label={t('announcements.active')} checked={values.status} onChange={(status) => setValues((v) => ({ ...v, status }))} />
          </div>
        </div>
        <span className={`-mt-2 inline-flex items-center gap-2 text-xs text-muted`}>
          <span className={`size-2.5 rounded-full ${priorityDot(Number(values.priority))}`} aria-hidden="true" />
          {t(`announcements.priorities.${values.priority}`)}
        </span>
        <fieldset className="flex flex-col gap-1.5">
          <legend className="mb-1.5 text-[13px] font-medium">{t('announcements.media')}</legend>
          {file || keptMedia ? (
            <span className="flex items-center gap-2 rounded-md border border-line px-3 py-1.5 text-sm">
              <span className="min-w-0 flex-1 truncate">{file?.name ?? keptMedia}</span>
              <Button
                variant="ghost"
                icon="trash"
                className="h-7 px-2"
                aria-label={t('announcements.mediaRemove', { name: file?.name ?? keptMedia ?? '' })}
                onClick={() => (file ? setFile(null) : setDropMedia(true))}
              />
            </span>
          ) : (
            <label className="inline-flex h-9 w-fit cursor-pointer items-center gap-2 rounded-md border border-line px-3 text-sm hover:bg-raised has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand">
              {t('announcements.mediaPick')}
              <input
                type="file"
                accept="image/png,image/jpeg"
                className="sr-only"
                onChange={(e) => {
                  const picked = e.target.files?.[0];
                  e.target.value = '';
                  if (!picked) return;
                  if (!isAllowedPicture(picked)) return void toast.error(t('announcements.mediaType'));
                  setFile(picked);
                }}
              />
            </label>
          )}
          <span className="text-xs text-muted">{t('announcements.mediaHint')}</span>
        </fieldset>
      </div>
    </Dialog>
  );
}
