// Create or edit a phrase campaign (spec/03 §2, §5): name, flow, connection, phrase, how it matches
// (ours: whole message or contained words) and its status. Success toasts of spec/03 §8.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FLOW_PHRASE_MATCH_MODES } from '@zapdesk/sync';
import { AppError } from '../../api/client.ts';
import { SaveCancelFooter } from '../../forms/useSaveForm.tsx';
import { serverFieldErrors, type FieldErrors } from '../../forms/validate.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { SelectField, Switch, TextField } from '../../ui/Field.tsx';
import { toast } from '../../ui/toast/store.ts';
import { toastError } from '../../ui/toast/toast-error.ts';
import { phraseApi, type FlowRecord, type PhraseCampaign } from '../flowbuilders/flow-api.ts';
import { checkPhraseForm, formOf, type PhraseErrors, type PhraseForm } from './phrase-form.ts';
// The name's messages are the flow list's (the same rule, spec/03 §5).
import '../flowbuilders/strings.ts';

type Props = { campaign: PhraseCampaign | null; flows: FlowRecord[]; connections: { id: number; name: string }[]; onClose: () => void; onSaved: () => void };

export function PhraseModal({ campaign, flows, connections, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [form, setForm] = useState<PhraseForm>(() => formOf(campaign));
  const [errors, setErrors] = useState<PhraseErrors>({});
  // The server's refusals by field, in its words (an active twin's phrase on the connection).
  const [refused, setRefused] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof PhraseForm>(k: K, v: PhraseForm[K]) => setForm((f) => ({ ...f, [k]: v }));
  const err = (k: keyof PhraseForm) => (errors[k] ? t(errors[k]) : refused[k]);

  const save = async () => {
    const checked = checkPhraseForm(form);
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    setRefused({});
    setBusy(true);
    try {
      if (campaign) await phraseApi.update({ ...checked.body, id: campaign.id });
      else await phraseApi.create(checked.body);
      toast.success(t(campaign ? 'phrase-lists.updated' : 'phrase-lists.created'));
      onSaved();
    } catch (e) {
      if (e instanceof AppError && e.issues) setRefused(serverFieldErrors(e.issues));
      toastError(e);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open title={campaign ? t('phrase-lists.edit') : t('phrase-lists.new')} onClose={onClose} onSubmit={() => void save()} footer={<SaveCancelFooter busy={busy} onCancel={onClose} />}>
      <div className="flex flex-col gap-4">
        <TextField label={t('phrase-lists.name')} name="name" value={form.name} error={err('name')} onChange={(e) => set('name', e.target.value)} />
        <SelectField label={t('phrase-lists.flow')} name="flowId" value={form.flowId} error={err('flowId')} options={[{ value: '', label: t('phrase-lists.chooseFlow') }, ...flows.map((f) => ({ value: String(f.id), label: f.name }))]} onChange={(e) => set('flowId', e.target.value)} />
        <SelectField label={t('phrase-lists.connection')} name="whatsappId" value={form.whatsappId} error={err('whatsappId')} options={[{ value: '', label: t('phrase-lists.anyConnection') }, ...connections.map((c) => ({ value: String(c.id), label: c.name }))]} onChange={(e) => set('whatsappId', e.target.value)} />
        <TextField label={t('phrase-lists.phrase')} name="phrase" value={form.phrase} error={err('phrase')} hint={t('phrase-lists.phraseHint')} onChange={(e) => set('phrase', e.target.value)} />
        <SelectField label={t('phrase-lists.matchMode')} name="matchMode" value={form.matchMode} options={FLOW_PHRASE_MATCH_MODES.map((m) => ({ value: m, label: t(`phrase-lists.modes.${m}`) }))} onChange={(e) => set('matchMode', e.target.value as PhraseForm['matchMode'])} />
        <Switch label={form.status ? t('phrase-lists.active') : t('phrase-lists.inactive')} checked={form.status} onChange={(v) => set('status', v)} />
      </div>
    </Dialog>
  );
}
