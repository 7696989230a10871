// Create or edit a tag (spec/02 §5-§6): name at least 3 characters, a colour, and the kanban switch
// for admins and supervisors only (tag-modal:kanban).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { can, DEFAULT_TAG_COLOR, tagCreateSchema, type TagWithCount } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { SaveCancelFooter, useSaveForm } from '../../forms/useSaveForm.tsx';
import { useUser } from '../../session/SessionProvider.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Switch, TextField } from '../../ui/Field.tsx';

type Props = { tag: TagWithCount | null; onClose: () => void; onSaved: () => void };

export function TagModal({ tag, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const me = useUser();
  const mayKanban = can(me, 'tag-modal:kanban');
  const [values, setValues] = useState({ name: tag?.name ?? '', color: tag?.color ?? DEFAULT_TAG_COLOR, kanban: tag?.kanban === 1 });
  const { errors, busy, submit } = useSaveForm<TagWithCount>(onSaved);

  const save = async () => {
    const body = { name: values.name, color: values.color, ...(mayKanban ? { kanban: values.kanban ? 1 : 0 } : {}) };
    await submit(tagCreateSchema, body, () => (tag ? api.put<TagWithCount>(`/tags/${tag.id}`, body) : api.post<TagWithCount>('/tags', body)));
  };

  return (
    <Dialog open size="sm" title={tag ? t('tags.edit') : t('tags.new')} onClose={onClose} onSubmit={() => void save()} footer={<SaveCancelFooter busy={busy} onCancel={onClose} />}>
      <div className="flex flex-col gap-4">
        <TextField label={t('tags.name')} name="name" value={values.name} error={errors.name} onChange={(e) => setValues((v) => ({ ...v, name: e.target.value }))} />
        <div className="flex items-end gap-3">
          <TextField label={t('tags.color')} name="color" wrapperClassName="flex-1" value={values.color} error={errors.color} onChange={(e) => setValues((v) => ({ ...v, color: e.target.value }))} />
          <input
            type="color"
            aria-label={t('tags.pickColor')}
            value={/^#[0-9a-f]{6}$/i.test(values.color) ? values.color : DEFAULT_TAG_COLOR}
            onChange={(e) => setValues((v) => ({ ...v, color: e.target.value }))}
            className="h-9 w-12 cursor-pointer rounded-md border border-line bg-surface p-1"
          />
        </div>
        {mayKanban && <Switch label={t('tags.kanban')} checked={values.kanban} onChange={(kanban) => setValues((v) => ({ ...v, kanban }))} />}
      </div>
    </Dialog>
  );
}
