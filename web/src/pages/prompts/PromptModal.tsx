// Create or edit a prompt (spec/03 §2, §5, §9): name, the prompt text, the queue (the spec's sector:
// saving without one shows the 'set sector' error), the model (free text with current models
// suggested), the API key (hidden, with a show/hide toggle; on edit the stored key is never shown
// and an empty field keeps it), max tokens, temperature (0 to 1 in steps of 0.1) and max messages.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PROMPT_DEFAULTS, PROMPT_MODELS, promptCreateSchema, promptUpdateSchema, type Prompt } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { SaveCancelFooter, useSaveForm } from '../../forms/useSaveForm.tsx';
import { useSyncedList } from '../../sync/use-synced.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { PasswordField, SelectField, TextAreaField, TextField } from '../../ui/Field.tsx';
import { toast } from '../../ui/toast/store.ts';
import './strings.ts';

type Props = { prompt: Prompt | null; onClose: () => void; onSaved: (saved: Prompt) => void };
type Values = { name: string; prompt: string; queueId: string; model: string; apiKey: string; maxTokens: string; temperature: string; maxMessages: string };

export function PromptModal({ prompt, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const queues = useSyncedList('queue') ?? [];
  const [values, setValues] = useState<Values>(() => ({
    name: prompt?.name ?? '',
    prompt: prompt?.prompt ?? '',
    queueId: prompt?.queueId ? String(prompt.queueId) : '',
    model: prompt?.model ?? PROMPT_DEFAULTS.model,
    apiKey: '',
    maxTokens: String(prompt?.maxTokens ?? PROMPT_DEFAULTS.maxTokens),
    temperature: String(prompt?.temperature ?? PROMPT_DEFAULTS.temperature),
    maxMessages: String(prompt?.maxMessages ?? PROMPT_DEFAULTS.maxMessages),
  }));
  const { errors, busy, submit } = useSaveForm<Prompt>(onSaved);
  const set = (field: keyof Values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));

  const save = async () => {
    // On edit an empty key field keeps the stored key: it is left out of the body.
    const body = { ...values, ...(prompt && values.apiKey.trim() === '' ? { apiKey: undefined } : {}) };
    if (!values.queueId) toast.error(t('prompts.setSector'));
    await submit(prompt ? promptUpdateSchema : promptCreateSchema, body, () => (prompt ? api.put<Prompt>(`/prompt/${prompt.id}`, body) : api.post<Prompt>('/prompt', body)));
  };

  return (
    <Dialog open size="lg" title={prompt ? t('prompts.edit') : t('prompts.new')} onClose={onClose} onSubmit={() => void save()} footer={<SaveCancelFooter busy={busy} onCancel={onClose} />}>
      <div className="grid gap-4">
        <TextField label={t('prompts.name')} name="name" autoFocus value={values.name} error={errors.name} onChange={set('name')} />
        <TextAreaField label={t('prompts.prompt')} name="prompt" rows={8} value={values.prompt} error={errors.prompt} hint={t('prompts.promptHint')} onChange={set('prompt')} />
        <PasswordField
          label={t('prompts.apiKey')}
          name="apiKey"
          autoComplete="off"
          value={values.apiKey}
          error={errors.apiKey}
          placeholder={prompt?.hasApiKey ? prompt.apiKey : ''}
          hint={prompt?.hasApiKey ? t('prompts.apiKeyKept', { mask: prompt.apiKey }) : undefined}
          onChange={set('apiKey')}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            label={t('prompts.queue')}
            name="queueId"
            value={values.queueId}
            error={errors.queueId}
            hint={t('prompts.queueHint')}
            onChange={set('queueId')}
            options={[{ value: '', label: t('prompts.chooseQueue') }, ...queues.map((q) => ({ value: String(q.id), label: q.name }))]}
          />
          <div>
            <TextField label={t('prompts.model')} name="model" list="prompt-models" value={values.model} error={errors.model} hint={t('prompts.modelHint')} onChange={set('model')} />
            <datalist id="prompt-models">
              {PROMPT_MODELS.map((m) => (
                <option key={m} value={m} />
              ))}
            </datalist>
          </div>
        </div>
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField label={t('prompts.maxTokens')} name="maxTokens" type="number" min={1} max={16000} value={values.maxTokens} error={errors.maxTokens} onChange={set('maxTokens')} />
          <TextField label={t('prompts.temperature')} name="temperature" type="number" min={0} max={1} step={0.1} value={values.temperature} error={errors.temperature} onChange={set('temperature')} />
          <TextField label={t('prompts.maxMessages')} name="maxMessages" type="number" min={1} max={100} value={values.maxMessages} error={errors.maxMessages} onChange={set('maxMessages')} />
        </div>
      </div>
    </Dialog>
  );
}
