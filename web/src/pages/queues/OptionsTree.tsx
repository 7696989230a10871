// The chatbot options of one queue (spec/03 §2): a tree loaded a level at a time; add, edit and
// delete through /queue-options, applied locally at once by the rules of options-tree.ts.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queueOptionCreateSchema, queueOptionUpdateSchema, type QueueOption } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { useConfirmDelete } from '../../hooks/use-confirm-delete.ts';
import { useSaveForm } from '../../forms/useSaveForm.tsx';
import { Button, IconButton } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { TextAreaField, TextField } from '../../ui/Field.tsx';
import { toastError } from '../../ui/toast/toast-error.ts';
import { levelKey, optionLabel, removeOption, upsertOption, type OptionLevels } from './options-tree.ts';
import './strings.ts';

type Draft = { parentId: number | null; editing: QueueOption | null; title: string; message: string };
type TreeState = {
  queueId: number;
  levels: OptionLevels;
  load: (parentId: number | null) => void;
  draft: Draft | null;
  setDraft: (d: Draft | null) => void;
  askDelete: (o: QueueOption, label: string) => void;
};

export function OptionsTree({ queueId }: { queueId: number }) {
  const { t } = useTranslation();
  const [levels, setLevels] = useState<OptionLevels>({});
  const [draft, setDraft] = useState<Draft | null>(null);
  const deleting = useConfirmDelete(async ({ option }: { option: QueueOption; label: string }) => {
    await api.delete(`/queue-options/${option.id}`);
    setLevels((l) => removeOption(l, option));
  });

  const load = (parentId: number | null) => {
    api.get<QueueOption[]>('/queue-options', { query: { queueId, parentId: parentId ?? -1 } }).then((rows) => setLevels((l) => ({ ...l, [levelKey(parentId)]: rows })), toastError);
  };
  useEffect(() => load(null), [queueId]);


  const state: TreeState = { queueId, levels, load, draft, setDraft, askDelete: (option, label) => deleting.ask({ option, label }) };
  const onSaved = (o: QueueOption) => {
    setLevels((l) => upsertOption(l, o));
    setDraft(null);
  };

  return (
    <section aria-labelledby="queue-options-title" className="rounded-md border border-line p-3">
      <h3 id="queue-options-title" className="font-semibold">
        {t('queues.options.title')}
      </h3>
      <p className="mb-2 text-xs text-muted">{t('queues.options.intro')}</p>
      <Level state={state} parentId={null} parentLabel={null} onSaved={onSaved} />
      <ConfirmDialog
        title={t('queues.options.deleteTitle')}
        message={t('queues.options.deleteConfirm', { label: deleting.target?.label ?? '', title: deleting.target?.option.title ?? '' })}
        {...deleting.dialog}
      />
    </section>
  );
}

function Level({ state, parentId, parentLabel, onSaved }: { state: TreeState; parentId: number | null; parentLabel: string | null; onSaved: (o: QueueOption) => void }) {
  const { t } = useTranslation();
  const options = state.levels[levelKey(parentId)];
  const adding = state.draft && !state.draft.editing && state.draft.parentId === parentId;
  if (!options) return <p className="py-1 text-xs text-muted">{t('common.loading')}</p>;
  return (
    <ul className={parentId === null ? 'space-y-1' : 'mt-1 space-y-1 border-l border-line pl-3'}>
      {options.length === 0 && parentId === null && !adding && <li className="text-sm text-muted">{t('queues.options.empty')}</li>}
      {options.map((o) => (
        <Item key={o.id} state={state} option={o} label={optionLabel(parentLabel, o)} onSaved={onSaved} />
      ))}
      <li>
        {adding ? (
          <DraftForm state={state} onSaved={onSaved} />
        ) : (
          parentId === null && (
            <Button variant="ghost" icon="plus" className="h-8 px-2 text-[13px]" onClick={() => state.setDraft({ parentId, editing: null, title: '', message: '' })}>
              {t('queues.options.add')}
            </Button>
          )
        )}
      </li>
    </ul>
  );
}

function Item({ state, option, label, onSaved }: { state: TreeState; option: QueueOption; label: string; onSaved: (o: QueueOption) => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const editing = state.draft?.editing?.id === option.id;
  const toggle = () => {
    if (!open) state.load(option.id);
    setOpen(!open);
  };
  return (
    <li>
      {editing ? (
        <DraftForm state={state} onSaved={onSaved} />
      ) : (
        <div className="flex items-center gap-1 rounded-md hover:bg-raised/60" data-testid={`option-${label}`}>
          <IconButton icon="chevronDown" className={open ? '' : '-rotate-90'} label={t(open ? 'queues.options.hide' : 'queues.options.show', { title: option.title })} aria-expanded={open} onClick={toggle} />
          <span className="w-10 shrink-0 font-mono text-xs text-muted">{label}</span>
          <span className="min-w-0 flex-1">
            <span className="block truncate text-sm font-medium">{option.title}</span>
            {option.message && <span className="block truncate text-xs text-muted">{option.message}</span>}
          </span>
          <IconButton
            icon="plus"
            label={t('queues.options.addChild', { title: option.title })}
            onClick={() => {
              if (!open) toggle();
              state.setDraft({ parentId: option.id, editing: null, title: '', message: '' });
            }}
          />
          <IconButton icon="edit" label={`${t('common.edit')} ${option.title}`} onClick={() => state.setDraft({ parentId: option.parentId, editing: option, title: option.title, message: option.message ?? '' })} />
          <IconButton icon="trash" tone="danger" label={`${t('common.delete')} ${option.title}`} onClick={() => state.askDelete(option, label)} />
        </div>
      )}
      {open && <Level state={state} parentId={option.id} parentLabel={label} onSaved={onSaved} />}
    </li>
  );
}

/** The inline form of a new or edited option (inside the queue modal's form, so it never submits it). */
function DraftForm({ state, onSaved }: { state: TreeState; onSaved: (o: QueueOption) => void }) {
  const { t } = useTranslation();
  const draft = state.draft!;
  const { errors, busy, submit } = useSaveForm<QueueOption>(onSaved);
  const save = () => {
    const body = draft.editing ? { title: draft.title, message: draft.message } : { queueId: state.queueId, parentId: draft.parentId, title: draft.title, message: draft.message };
    return submit(draft.editing ? queueOptionUpdateSchema : queueOptionCreateSchema, body, () =>
      draft.editing ? api.put<QueueOption>(`/queue-options/${draft.editing.id}`, body) : api.post<QueueOption>('/queue-options', body),
    );
  };
  return (
    <div
      className="grid gap-2 rounded-md border border-brand/40 bg-raised/40 p-2.5"
      onKeyDown={(e) => {
        if (e.key === 'Enter' && e.target instanceof HTMLInputElement) {
          e.preventDefault();
          void save();
        }
      }}
    >
      <TextField label={t('queues.options.optionTitle')} autoFocus value={draft.title} error={errors.title} onChange={(e) => state.setDraft({ ...draft, title: e.target.value })} />
      <TextAreaField label={t('queues.options.message')} rows={2} value={draft.message} error={errors.message} onChange={(e) => state.setDraft({ ...draft, message: e.target.value })} />
      <div className="flex justify-end gap-2">
        <Button variant="secondary" className="h-8" onClick={() => state.setDraft(null)}>
          {t('common.cancel')}
        </Button>
        <Button className="h-8" busy={busy} onClick={() => void save()}>
          {t('common.save')}
        </Button>
      </div>
    </div>
  );
}
