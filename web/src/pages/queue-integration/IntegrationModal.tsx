// Create or edit a queue integration (spec/03 §2, §5, §9): the type picked with its logo, the name,
// and each type's fields: Dialogflow (project, language, the service-account JSON: on edit never
// shown, an empty field keeps it), n8n and webhook (the URL and an optional signing secret: left
// empty on create the server generates one and shows it here once to copy), Typebot (server URL,
// slug, delay, expiry, keywords and messages) and flowbuilder (the flow it starts).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DIALOGFLOW_LANGUAGES,
  INTEGRATION_TYPES,
  isMaskedSecret,
  queueIntegrationCreateSchema,
  queueIntegrationUpdateSchema,
  SIGNED_INTEGRATION_TYPES,
  type QueueIntegration,
} from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { SaveCancelFooter, useSaveForm } from '../../forms/useSaveForm.tsx';
import { useResource } from '../../hooks/use-resource.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { PasswordField, SelectField, TextAreaField, TextField } from '../../ui/Field.tsx';
import { toast } from '../../ui/toast/store.ts';
import { integrationBody, initialValues, type Field } from './integration-form.ts';
import { IntegrationLogo, integrationLabel } from './IntegrationLogo.tsx';
import './strings.ts';

type Props = { integration: QueueIntegration | null; onClose: () => void; onSaved: (saved: QueueIntegration) => void };

export function IntegrationModal({ integration, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [values, setValues] = useState(() => initialValues(integration));
  const [revealed, setRevealed] = useState<QueueIntegration | null>(null);
  // A generated signing secret comes back in full once: show it to copy before closing.
  const { errors, busy, submit } = useSaveForm<QueueIntegration>((saved) => (saved.signingSecret && !isMaskedSecret(saved.signingSecret) ? setRevealed(saved) : onSaved(saved)));
  const flows = useResource(async () => (values.type === 'flowbuilder' ? ((await api.get<{ flows: { id: number; name: string }[] }>('/flowbuilder')).flows ?? []) : []), [values.type]);
  const set = (field: Field | 'type') => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));
  const type = values.type;
  const stored = integration?.type === type ? integration : null;

  const save = async () => {
    const body = integrationBody(values, integration !== null);
    await submit(integration ? queueIntegrationUpdateSchema : queueIntegrationCreateSchema, body, () =>
      integration ? api.put<QueueIntegration>(`/queueIntegration/${integration.id}`, body) : api.post<QueueIntegration>('/queueIntegration', body),
    );
  };

  if (revealed) {
    const copy = () => void navigator.clipboard?.writeText(revealed.signingSecret).then(() => toast.success(t('queue-integration.copied')));
    return (
      <Dialog open size="md" title={t('queue-integration.secretTitle')} onClose={() => onSaved(revealed)} footer={<Button onClick={() => onSaved(revealed)}>{t('queue-integration.secretDone')}</Button>}>
        <p className="text-sm">{t('queue-integration.secretOnce')}</p>
        <div className="mt-3 flex items-center gap-2">
          <code data-testid="signing-secret" className="flex-1 rounded-md border border-line bg-raised px-3 py-2 text-sm break-all">
            {revealed.signingSecret}
          </code>
          <Button variant="secondary" onClick={copy}>
            {t('queue-integration.copy')}
          </Button>
        </div>
      </Dialog>
    );
  }

  const text = (field: Field, hint?: string, extra: Record<string, unknown> = {}) => (
    <TextField label={t(`queue-integration.fields.${field}`)} name={field} value={values[field]} error={errors[field]} hint={hint} onChange={set(field)} {...extra} />
  );
  const jsonError = errors.jsonContent && errors.jsonContent === t('validation.invalid') ? t('queue-integration.jsonInvalid') : errors.jsonContent;

  return (
    <Dialog open size="lg" title={integration ? t('queue-integration.edit') : t('queue-integration.new')} onClose={onClose} onSubmit={() => void save()} footer={<SaveCancelFooter busy={busy} onCancel={onClose} />}>
      <div className="grid gap-4">
        <fieldset>
          <legend className="mb-1.5 text-[13px] font-medium">{t('queue-integration.type')}</legend>
          <div className="flex flex-wrap gap-2" role="radiogroup" aria-label={t('queue-integration.type')}>
            {INTEGRATION_TYPES.map((ty) => (
              <button
                key={ty}
                type="button"
                role="radio"
                aria-checked={type === ty}
                onClick={() => setValues((v) => ({ ...v, type: ty }))}
                className="flex items-center gap-2 rounded-md border border-line px-2.5 py-1.5 text-sm aria-checked:border-brand aria-checked:ring-2 aria-checked:ring-brand/30"
              >
                <IntegrationLogo type={ty} size={22} />
                {integrationLabel(ty)}
              </button>
            ))}
          </div>
        </fieldset>
        <TextField label={t('queue-integration.name')} name="name" autoFocus value={values.name} error={errors.name} hint={type === 'dialogflow' ? undefined : t('queue-integration.nameIsProject')} onChange={set('name')} />
        {type === 'dialogflow' && (
          <>
            <div className="grid gap-4 sm:grid-cols-2">
              {text('projectName', t('queue-integration.projectHint'))}
              <SelectField label={t('queue-integration.fields.language')} name="language" value={values.language} error={errors.language} onChange={set('language')} options={DIALOGFLOW_LANGUAGES.map((l) => ({ value: l, label: l }))} />
            </div>
            <TextAreaField
              label={t('queue-integration.fields.jsonContent')}
              name="jsonContent"
              rows={6}
              spellCheck={false}
              value={values.jsonContent}
              error={jsonError}
              placeholder={stored?.hasJsonContent ? stored.jsonContent : '{ "type": "service_account", … }'}
              hint={stored?.hasJsonContent ? t('queue-integration.secretKept', { mask: stored.jsonContent }) : t('queue-integration.jsonHint')}
              onChange={set('jsonContent')}
            />
            <TestSession integrationId={stored?.id} projectName={values.projectName} jsonContent={values.jsonContent} language={values.language} />
          </>
        )}
        {(type === 'n8n' || type === 'webhook' || type === 'typebot') && text('urlN8N', t(type === 'typebot' ? 'queue-integration.typebotUrlHint' : 'queue-integration.urlHint'), { type: 'url', placeholder: 'https://' })}
        {SIGNED_INTEGRATION_TYPES.includes(type) && (
          <PasswordField
            label={t('queue-integration.fields.signingSecret')}
            name="signingSecret"
            autoComplete="off"
            value={values.signingSecret}
            error={errors.signingSecret}
            hint={stored?.hasSigningSecret ? t('queue-integration.secretKept', { mask: stored.signingSecret }) : t('queue-integration.secretGenerated')}
            onChange={set('signingSecret')}
          />
        )}
        {type === 'typebot' && (
          <>
            <div className="grid gap-4 sm:grid-cols-3">
              {text('typebotSlug')}
              {text('typebotDelayMessage', t('queue-integration.delayHint'), { type: 'number', min: 0 })}
              {text('typebotExpires', t('queue-integration.expiresHint'), { type: 'number', min: 0 })}
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              {text('typebotKeywordFinish')}
              {text('typebotKeywordRestart')}
              {text('typebotUnknownMessage')}
              {text('typebotRestartMessage')}
            </div>
          </>
        )}
        {type === 'flowbuilder' && (
          <SelectField
            label={t('queue-integration.fields.flowId')}
            name="flowId"
            value={values.flowId}
            error={errors.flowId}
            onChange={set('flowId')}
            options={[{ value: '', label: t('queue-integration.chooseFlow') }, ...(flows.data ?? []).map((f) => ({ value: String(f.id), label: f.name }))]}
          />
        )}
      </div>
    </Dialog>
  );
}

type TestResult = { ok: boolean; reply?: string; error?: string };

/** The Dialogflow test (POST /queueIntegration/testSession): one greeting with these credentials, the answer shown. */
function TestSession(props: { integrationId: number | undefined; projectName: string; jsonContent: string; language: string }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<TestResult | null>(null);
  const run = async () => {
    setBusy(true);
    setResult(null);
    try {
      const body = { projectName: props.projectName || undefined, jsonContent: props.jsonContent || undefined, language: props.language || 'pt-BR', integrationId: props.integrationId };
      setResult(await api.post<TestResult>('/queueIntegration/testSession', body));
    } catch (err) {
      setResult({ ok: false, error: err instanceof Error ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  };
  const text = !result ? null : !result.ok ? t('queue-integration.testFailed', { error: result.error }) : result.reply ? t('queue-integration.testOk', { reply: result.reply }) : t('queue-integration.testEmpty');
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button variant="secondary" type="button" disabled={busy || (!props.jsonContent && !props.integrationId)} onClick={() => void run()}>
        {busy ? t('queue-integration.testing') : t('queue-integration.testSession')}
      </Button>
      {text && (
        <p role="status" data-testid="test-session-result" className={`text-sm ${result?.ok ? 'text-emerald-600' : 'text-red-600'}`}>
          {text}
        </p>
      )}
    </div>
  );
}
