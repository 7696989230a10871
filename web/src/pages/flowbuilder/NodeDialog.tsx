// The node dialogs of spec/03 §2 (create and edit for every node type but the start): the fields of
// spec/03 §3, checked with sync's node schemas (node-forms.ts) so a dialog cannot make a node the save
// would refuse. The submit waits 400 ms with the button disabled (spec/03 §5).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FLOW_CONDITION_OPERATORS, FLOW_INTERVAL_MAX_SEC, FLOW_RANDOMIZER_STEP, FLOW_VOICES, type FlowNodeType } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { useResource } from '../../hooks/use-resource.ts';
import { useSyncedList } from '../../sync/use-synced.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { PasswordField, SelectField, TextAreaField, TextField } from '../../ui/Field.tsx';
import { listFrom } from '../flowbuilders/flow-api.ts';
import { ContentFields } from './ContentFields.tsx';
import { MediaField } from './MediaField.tsx';
import { checkNodeData, randomizerSplit, type CheckContext, type Data, type FormErrors } from './node-forms.ts';

export type NodeDialogState = { mode: 'create' | 'edit'; type: FlowNodeType; nodeId: string | null; data: Data };

type Props = NodeDialogState & { check: Omit<CheckContext, 'nodeId'>; onClose: () => void; onSave: (data: Data) => void };

const SUBMIT_DELAY_MS = 400;

export function NodeDialog({ mode, type, nodeId, data: initial, check, onClose, onSave }: Props) {
  const { t } = useTranslation();
  const [data, setData] = useState<Data>(initial);
  const [errors, setErrors] = useState<FormErrors>({});
  const [busy, setBusy] = useState(false);
  const typeName = t(`flowbuilder.nodes.${type}`);

  const submit = () => {
    setBusy(true);
    setTimeout(() => {
      setBusy(false);
      const result = checkNodeData(type, data, { ...check, nodeId });
      if (!result.ok) return setErrors(result.errors);
      onSave(result.data);
    }, SUBMIT_DELAY_MS);
  };

  const footer = (
    <>
      <Button variant="secondary" onClick={onClose}>
        {t('common.cancel')}
      </Button>
      <Button type="submit" busy={busy}>
        {mode === 'create' ? t('flowbuilder.dialog.addButton') : t('flowbuilder.dialog.editButton')}
      </Button>
    </>
  );

  return (
    <Dialog
      open
      size={type === 'singleBlock' || type === 'openai' || type === 'menu' ? 'lg' : 'md'}
      title={mode === 'create' ? t('flowbuilder.dialog.addTitle', { type: typeName }) : t('flowbuilder.dialog.editTitle', { type: typeName })}
      onClose={onClose}
      onSubmit={submit}
      footer={footer}
    >
      <div className="flex flex-col gap-4">
        <NodeFields type={type} data={data} errors={errors} onChange={setData} variables={check.answerKeys.map((a) => a.key).filter(Boolean)} />
      </div>
    </Dialog>
  );
}

type FieldsProps = { type: FlowNodeType; data: Data; errors: FormErrors; onChange: (data: Data) => void; variables?: string[] };

/** What a condition can compare besides the answers: the contact and template fields. */
const CONTACT_FIELDS = ['name', 'firstName', 'number', 'email', 'queue', 'connection'];

function NodeFields({ type, data, errors, onChange, variables = [] }: FieldsProps) {
  const { t } = useTranslation();
  const e = (path: string) => (errors[path] ? t(`flowbuilder.rules.${errors[path]}`) : undefined);
  const set = (patch: Data) => onChange({ ...data, ...patch });
  const str = (v: unknown) => (v === undefined || v === null ? '' : String(v));
  const integ = (data.typebotIntegration ?? {}) as Data;
  const setInteg = (patch: Data) => set({ typebotIntegration: { ...integ, ...patch } });
  const ie = (k: string) => e(`typebotIntegration.${k}`);

  switch (type) {
    case 'start':
      return <p className="text-sm text-muted">{t('flowbuilder.nodes.startHint')}</p>;
    case 'message':
      return <TextAreaField label={t('flowbuilder.fields.message')} rows={6} value={str(data.label)} error={e('label')} onChange={(ev) => set({ label: ev.target.value })} hint={t('flowbuilder.fields.variablesHint', { examples: '{{firstName}}, {{name}}', greeting: '{{ms}}', interpolation: { escapeValue: false } })} />;
    case 'interval':
      return <TextField label={t('flowbuilder.fields.seconds')} type="number" min={1} max={FLOW_INTERVAL_MAX_SEC} value={str(data.sec)} error={e('sec')} onChange={(ev) => set({ sec: ev.target.value })} hint={t('flowbuilder.fields.intervalHint', { max: FLOW_INTERVAL_MAX_SEC })} />;
    case 'condition':
      return (
        <>
          <TextField label={t('flowbuilder.fields.key')} list="flow-condition-keys" value={str(data.key)} error={e('key')} onChange={(ev) => set({ key: ev.target.value })} hint={t('flowbuilder.fields.keyHint')} />
          <datalist id="flow-condition-keys">
            {[...new Set([...variables, ...CONTACT_FIELDS])].map((k) => (
              <option key={k} value={k} />
            ))}
          </datalist>
          <SelectField label={t('flowbuilder.fields.operator')} value={str(data.condition) || 'equals'} error={e('condition')} options={FLOW_CONDITION_OPERATORS.map((o) => ({ value: o, label: t(`flowbuilder.operators.${o}`) }))} onChange={(ev) => set({ condition: ev.target.value })} />
          {data.condition !== 'exists' && data.condition !== 'notExists' && <TextField label={t('flowbuilder.fields.value')} value={str(data.value)} error={e('value')} onChange={(ev) => set({ value: ev.target.value })} />}
        </>
      );
    case 'menu':
      return <MenuFields data={data} errors={errors} onChange={onChange} />;
    case 'img':
    case 'video':
      return (
        <>
          <MediaField kind={type} label={t('flowbuilder.fields.file')} value={str(data.url)} original={str(data.original)} error={e('url')} onUploaded={(url, original) => set({ url, original })} />
          <TextField label={t('flowbuilder.fields.caption')} value={str(data.caption)} onChange={(ev) => set({ caption: ev.target.value })} />
        </>
      );
    case 'audio':
      return (
        <>
          <MediaField kind="audio" label={t('flowbuilder.fields.file')} value={str(data.url)} original={str(data.original)} error={e('url')} onUploaded={(url, original) => set({ url, original })} />
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={data.record !== false} onChange={(ev) => set({ record: ev.target.checked })} />
            {t('flowbuilder.fields.record')}
          </label>
        </>
      );
    case 'singleBlock':
      return <ContentFields data={data} errors={errors} onChange={onChange} />;
    case 'randomizer': {
      const split = randomizerSplit(Number(data.percent ?? 50));
      return (
        <div className="flex flex-col gap-2">
          <label className="text-[13px] font-medium" htmlFor="randomizer-percent">
            {t('flowbuilder.fields.percent')}
          </label>
          <input id="randomizer-percent" type="range" min={0} max={100} step={FLOW_RANDOMIZER_STEP} value={split.a} onChange={(ev) => set({ percent: Number(ev.target.value) })} />
          <p className="text-sm">{t('flowbuilder.fields.split', { a: split.a, b: split.b })}</p>
        </div>
      );
    }
    case 'ticket':
      return <TicketFields data={data} error={e('queueId')} onChange={onChange} />;
    case 'question':
      return (
        <>
          <TextAreaField label={t('flowbuilder.fields.questionMessage')} rows={7} value={str(integ.message)} error={ie('message')} onChange={(ev) => setInteg({ message: ev.target.value })} />
          <TextField label={t('flowbuilder.fields.answerKey')} value={str(integ.answerKey)} error={ie('answerKey')} onChange={(ev) => setInteg({ answerKey: ev.target.value })} hint={t('flowbuilder.fields.answerKeyHint', { token: `{{${str(integ.answerKey).trim() || 'nomeCliente'}}}`, interpolation: { escapeValue: false } })} />
          <TextField label={t('flowbuilder.fields.timeoutSec')} type="number" min={1} value={str(integ.timeoutSec)} error={ie('timeoutSec')} onChange={(ev) => setInteg({ timeoutSec: ev.target.value === '' ? undefined : ev.target.value })} hint={t('flowbuilder.fields.timeoutHint')} />
        </>
      );
    case 'typebot':
      return <TypebotFields data={data} error={ie('id')} onChange={onChange} />;
    case 'openai':
      return (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label={t('flowbuilder.fields.name')} value={str(integ.name)} error={ie('name')} onChange={(ev) => setInteg({ name: ev.target.value })} />
          <PasswordField label={t('flowbuilder.fields.apiKey')} value={str(integ.apiKey)} error={ie('apiKey')} onChange={(ev) => setInteg({ apiKey: ev.target.value })} autoComplete="off" />
          <TextAreaField label={t('flowbuilder.fields.prompt')} rows={10} value={str(integ.prompt)} error={ie('prompt')} onChange={(ev) => setInteg({ prompt: ev.target.value })} wrapperClassName="sm:col-span-2" />
          <SelectField label={t('flowbuilder.fields.voice')} value={str(integ.voice) || 'texto'} options={FLOW_VOICES.map((v) => ({ value: v, label: v === 'texto' ? t('flowbuilder.fields.voiceText') : v.replace(/^pt-BR-|Neural$/g, '') }))} onChange={(ev) => setInteg({ voice: ev.target.value })} />
          <TextField label={t('flowbuilder.fields.voiceKey')} value={str(integ.voiceKey)} onChange={(ev) => setInteg({ voiceKey: ev.target.value })} />
          <TextField label={t('flowbuilder.fields.voiceRegion')} value={str(integ.voiceRegion)} onChange={(ev) => setInteg({ voiceRegion: ev.target.value })} />
          <TextField label={t('flowbuilder.fields.temperature')} type="number" step={0.1} value={str(integ.temperature)} error={ie('temperature')} onChange={(ev) => setInteg({ temperature: ev.target.value })} />
          <TextField label={t('flowbuilder.fields.maxTokens')} type="number" value={str(integ.maxTokens)} error={ie('maxTokens')} onChange={(ev) => setInteg({ maxTokens: ev.target.value })} />
          <TextField label={t('flowbuilder.fields.maxMessages')} type="number" value={str(integ.maxMessages)} error={ie('maxMessages')} onChange={(ev) => setInteg({ maxMessages: ev.target.value })} />
        </div>
      );
  }
}

function MenuFields({ data, errors, onChange }: Omit<FieldsProps, 'type'>) {
  const { t } = useTranslation();
  const options = ((data.arrayOption as { number: number; value: string }[]) ?? []).map((o, i) => ({ ...o, number: i + 1 }));
  const setOptions = (next: { number: number; value: string }[]) => onChange({ ...data, arrayOption: next.map((o, i) => ({ ...o, number: i + 1 })) });
  const e = (path: string) => (errors[path] ? t(`flowbuilder.rules.${errors[path]}`) : undefined);
  return (
    <>
      <TextAreaField label={t('flowbuilder.fields.menuMessage')} rows={4} value={String(data.message ?? '')} onChange={(ev) => onChange({ ...data, message: ev.target.value })} />
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-[13px] font-medium">{t('flowbuilder.fields.options')}</legend>
        {e('arrayOption') && <p className="text-xs text-danger">{e('arrayOption')}</p>}
        {options.map((o, i) => (
          <div key={i} className="flex items-start gap-2">
            <span className="mt-2 w-6 text-right text-sm font-semibold tabular-nums">{o.number}</span>
            <TextField
              label={t('flowbuilder.fields.option', { n: o.number })}
              value={o.value}
              error={e(`arrayOption.${i}.value`) ?? e(`arrayOption.${i}.number`)}
              onChange={(ev) => setOptions(options.map((x, j) => (j === i ? { ...x, value: ev.target.value } : x)))}
              wrapperClassName="flex-1 [&>label]:sr-only"
            />
            <IconButton icon="trash" tone="danger" label={t('flowbuilder.fields.removeOption', { n: o.number })} onClick={() => setOptions(options.filter((_, j) => j !== i))} />
          </div>
        ))}
        <Button variant="secondary" icon="plus" className="self-start" onClick={() => setOptions([...options, { number: options.length + 1, value: '' }])}>
          {t('flowbuilder.fields.addOption')}
        </Button>
      </fieldset>
      <TextField label={t('flowbuilder.fields.invalidMessage')} value={String(data.invalidMessage ?? '')} onChange={(ev) => onChange({ ...data, invalidMessage: ev.target.value || undefined })} hint={t('flowbuilder.fields.invalidHint')} />
      <TextField label={t('flowbuilder.fields.timeoutSec')} type="number" min={1} value={data.timeoutSec === undefined ? '' : String(data.timeoutSec)} error={e('timeoutSec')} onChange={(ev) => onChange({ ...data, timeoutSec: ev.target.value === '' ? undefined : ev.target.value })} hint={t('flowbuilder.fields.timeoutHint')} />
    </>
  );
}

function TicketFields({ data, error, onChange }: { data: Data; error: string | undefined; onChange: (d: Data) => void }) {
  const { t } = useTranslation();
  const queues = useSyncedList('queue') ?? [];
  const current = String(data.queueId ?? (data.queue as Data | undefined)?.id ?? (data.data as Data | undefined)?.id ?? '');
  return (
    <SelectField
      label={t('flowbuilder.fields.queue')}
      value={current}
      error={error}
      options={[{ value: '', label: t('flowbuilder.fields.chooseQueue') }, ...queues.map((q) => ({ value: String(q.id), label: q.name }))]}
      onChange={(ev) => {
        const q = queues.find((x) => String(x.id) === ev.target.value);
        onChange(q ? { queueId: q.id, queue: { id: q.id, name: q.name } } : {});
      }}
    />
  );
}

type Integration = { id: number; name: string; type?: string };

function TypebotFields({ data, error, onChange }: { data: Data; error: string | undefined; onChange: (d: Data) => void }) {
  const { t } = useTranslation();
  const list = useResource(async () => listFrom<Integration>(await api.get('/queueIntegration/'), ['queueIntegrations']), []);
  const current = (data.typebotIntegration ?? {}) as Data;
  const options = (list.data ?? []).filter((i) => !i.type || i.type === 'typebot');
  return (
    <SelectField
      label={t('flowbuilder.fields.integration')}
      value={String(current.id ?? '')}
      error={error}
      hint={list.data && options.length === 0 ? t('flowbuilder.fields.noTypebot') : undefined}
      options={[{ value: '', label: t('flowbuilder.fields.chooseIntegration') }, ...options.map((i) => ({ value: String(i.id), label: i.name }))]}
      onChange={(ev) => onChange({ typebotIntegration: options.find((i) => String(i.id) === ev.target.value) ?? {} })}
    />
  );
}
