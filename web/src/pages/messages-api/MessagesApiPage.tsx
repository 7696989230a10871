// /messages-api (spec/03 §2 "External messages API page"; admins, plan flag useExternalApi): how to
// send text and media through the external API, and two test forms that call it for real with a
// connection's token and show its answer as it came. The route guard sends a company without the
// feature home with 'messagesAPI.toasts.unauthorized' after 1 s. The full reference is the API's /docs.
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { externalMessageSchema } from '@zapdesk/sync';
import { z } from 'zod';
import { apiBaseUrl } from '../../api/config.ts';
import { validate, type FieldErrors } from '../../forms/validate.ts';
import { Button } from '../../ui/Button.tsx';
import { TextAreaField, TextField } from '../../ui/Field.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { Card, Page } from '../../ui/Page.tsx';
import { toast } from '../../ui/toast/store.ts';
import './strings.ts';

// spec/03 §5: token, number, and body (or file) required; the number as the API itself reads it.
const tokenSchema = z.string().trim().min(1, 'Required');
const textFormSchema = externalMessageSchema.extend({ token: tokenSchema, body: z.string().trim().min(1, 'Required') });
const mediaFormSchema = externalMessageSchema.extend({ token: tokenSchema, file: z.instanceof(File, { message: 'Required' }) });

type Answer = { status: number; body: string } | { error: string };

const sendUrl = () => `${apiBaseUrl()}/api/messages/send`;

/** One real call to the external API; the answer is shown whatever it is. */
async function send(token: string, body: BodyInit, json: boolean): Promise<Answer> {
  try {
    const res = await fetch(sendUrl(), { method: 'POST', headers: { authorization: `Bearer ${token}`, ...(json ? { 'content-type': 'application/json' } : {}) }, body });
    const text = await res.text();
    let pretty = text;
    try {
      pretty = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      // Not JSON: shown as it came.
    }
    return { status: res.status, body: pretty };
  } catch {
    return { error: 'network' };
  }
}

function Code({ children }: { children: ReactNode }) {
  return <pre className="overflow-x-auto rounded-md bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100">{children}</pre>;
}

function AnswerBox({ answer }: { answer: Answer | null }) {
  const { t } = useTranslation();
  if (!answer) return null;
  const ok = 'status' in answer && answer.status < 300;
  return (
    <div className="mt-3" role="status" aria-label={t('messages-api.answer')}>
      <p className={`mb-1 text-xs font-semibold ${ok ? 'text-emerald-600' : 'text-danger'}`}>
        {t('messages-api.answer')}: {'status' in answer ? t('messages-api.answerStatus', { status: answer.status }) : t('messages-api.networkError')}
      </p>
      {'status' in answer && <Code>{answer.body}</Code>}
    </div>
  );
}

function TestForm({ kind }: { kind: 'text' | 'media' }) {
  const { t } = useTranslation();
  const [values, setValues] = useState({ token: '', number: '', body: '' });
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const set = (key: keyof typeof values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value }));
  const field = (key: string) => `${kind}-${key}`;

  async function submit(e: FormEvent) {
    e.preventDefault();
    const checked = kind === 'text' ? validate(textFormSchema, values, t) : validate(mediaFormSchema, { ...values, file: file ?? undefined }, t);
    if (!checked.ok) return setErrors(checked.errors);
    setErrors({});
    setBusy(true);
    let body: BodyInit;
    if (kind === 'text') body = JSON.stringify({ number: values.number, body: values.body });
    else {
      const form = new FormData();
      form.append('number', values.number);
      if (values.body.trim()) form.append('body', values.body);
      form.append('medias', file!, file!.name);
      body = form;
    }
    const result = await send(values.token.trim(), body, kind === 'text');
    setBusy(false);
    setAnswer(result);
    if ('status' in result && result.status < 300) toast.success(t('messages-api.sent'));
  }

  return (
    <Card className="p-5">
      <h3 className="mb-4 flex items-center gap-2 text-sm font-semibold text-ink">
        <Icon name={kind === 'text' ? 'send' : 'paperclip'} className="size-4 text-brand" />
        {t(kind === 'text' ? 'messages-api.testTextTitle' : 'messages-api.testMediaTitle')}
      </h3>
      <form noValidate onSubmit={submit} className="flex flex-col gap-3" aria-label={t(kind === 'text' ? 'messages-api.testTextTitle' : 'messages-api.testMediaTitle')}>
        <TextField id={field('token')} label={t('messages-api.token')} hint={t('messages-api.tokenHint')} value={values.token} onChange={set('token')} error={errors.token} autoComplete="off" />
        <TextField id={field('number')} label={t('messages-api.number')} hint={t('messages-api.numberHint')} value={values.number} onChange={set('number')} error={errors.number} inputMode="tel" />
        {kind === 'text' ? (
          <TextAreaField id={field('body')} label={t('messages-api.body')} value={values.body} onChange={set('body')} error={errors.body} />
        ) : (
          <>
            <TextField id={field('caption')} label={t('messages-api.caption')} value={values.body} onChange={set('body')} />
            <TextField id={field('file')} type="file" label={t('messages-api.file')} error={errors.file} onChange={(e) => setFile(e.target.files?.[0] ?? null)} className="block w-full text-sm text-ink file:mr-3 file:rounded-md file:border-0 file:bg-raised file:px-3 file:py-1.5 file:text-sm" />
          </>
        )}
        <div>
          <Button type="submit" icon="send" busy={busy} disabled={busy}>
            {t('messages-api.send')}
          </Button>
        </div>
      </form>
      <AnswerBox answer={answer} />
    </Card>
  );
}

export function Component() {
  const { t } = useTranslation();
  const docsUrl = `${apiBaseUrl()}/docs`;
  return (
    <Page
      title={t('messages-api.title')}
      subtitle={t('messages-api.subtitle')}
      actions={
        <a href={docsUrl} target="_blank" rel="noreferrer" className="inline-flex h-9 items-center gap-2 rounded-md border border-line bg-surface px-3 text-sm font-medium text-ink shadow-xs hover:bg-raised">
          <Icon name="api" className="size-4" />
          {t('messages-api.reference')}
        </a>
      }
    >
      <div className="grid grid-cols-1 gap-5 xl:grid-cols-2">
        <Card className="flex flex-col gap-4 p-5 text-sm text-ink">
          <h2 className="text-base font-semibold">{t('messages-api.docTitle')}</h2>
          <p className="text-muted">{t('messages-api.docIntro')}</p>
          <div>
            <p className="mb-1 font-medium">{t('messages-api.endpoint')}</p>
            <Code>POST {sendUrl()}</Code>
          </div>
          <div>
            <p className="mb-1 font-medium">{t('messages-api.headers')}</p>
            <Code>{'Authorization: Bearer <token>'}</Code>
          </div>
          <div>
            <h3 className="mb-1 font-semibold">{t('messages-api.textTitle')}</h3>
            <p className="mb-2 text-muted">{t('messages-api.textDoc')}</p>
            <Code>{`Content-Type: application/json\n\n{\n  "number": "5511999990000",\n  "body": "Your order has shipped"\n}`}</Code>
          </div>
          <div>
            <h3 className="mb-1 font-semibold">{t('messages-api.mediaTitle')}</h3>
            <p className="mb-2 text-muted">{t('messages-api.mediaDoc')}</p>
            <Code>{`curl -X POST ${sendUrl()} \\\n  -H "Authorization: Bearer <token>" \\\n  -F number=5511999990000 \\\n  -F body="Invoice attached" \\\n  -F medias=@invoice.pdf`}</Code>
          </div>
          <p className="text-muted">{t('messages-api.answerDoc')}</p>
        </Card>
        <div className="flex flex-col gap-5">
          <h2 className="text-base font-semibold text-ink">{t('messages-api.testTitle')}</h2>
          <TestForm kind="text" />
          <TestForm kind="media" />
        </div>
      </div>
    </Page>
  );
}
