// The checkout wizard (spec/03 §2, §4, §5): steps data, customise, review; paying on the last one
// asks the server for the invoice's Pix charge (POST /subscription) and shows its amount
// (valor.original), the QR of qrcode.qrcode and the copy-paste code. The company's `payment` event
// (CONCLUIDA) for this invoice shows the new due date, then returns home after 4 s.
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toDataURL } from 'qrcode';
import { checkoutSchema, translateError, type Invoice, type PixCharge } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { formatCents, formatDate, invoiceDetailText } from '../../forms/format.ts';
import { useResource } from '../../hooks/use-resource.ts';
import { useSyncedList } from '../../sync/use-synced.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { TextField } from '../../ui/Field.tsx';
import { toast } from '../../ui/toast/store.ts';
import { toastError } from '../../ui/toast/toast-error.ts';
import { usePaymentEvent } from './use-payment-event.ts';
import './strings.ts';

/** spec/03 §9: home after a payment. */
export const PAID_REDIRECT_MS = 4000;
const STEPS = ['data', 'customize', 'review'] as const;
type Form = Record<'firstName' | 'lastName' | 'address1' | 'address2' | 'city' | 'state' | 'zipcode' | 'country', string>;

export function CheckoutWizard({ invoice, onClose }: { invoice: Invoice; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const company = useSyncedList('company')?.[0];
  const [step, setStep] = useState(0);
  const [form, setForm] = useState<Form>({ firstName: '', lastName: '', address1: '', address2: '', city: '', state: '', zipcode: '', country: 'Brasil' });
  const [errors, setErrors] = useState<Partial<Record<keyof Form, string>>>({});
  const [busy, setBusy] = useState(false);
  const [charge, setCharge] = useState<PixCharge | null>(null);
  const [image, setImage] = useState('');
  const [paidUntil, setPaidUntil] = useState<string | null>(null);
  // With no Pix receiver on the platform no charge can be made: said as the checkout opens.
  const availability = useResource(() => api.get<{ pixConfigured: boolean }>('/subscription/checkout'), []);
  const unavailable = availability.data?.pixConfigured === false;

  useEffect(() => {
    if (!charge) return;
    let live = true;
    void toDataURL(charge.qrcode.qrcode, { width: 256, margin: 1, errorCorrectionLevel: 'M' }).then((url) => live && setImage(url));
    return () => {
      live = false;
    };
  }, [charge]);

  usePaymentEvent((event) => {
    if (event.invoiceId !== invoice.id) return;
    setPaidUntil(event.dueDate);
  });
  useEffect(() => {
    if (!paidUntil) return;
    const timer = setTimeout(() => void navigate('/'), PAID_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [paidUntil, navigate]);

  const set = (key: keyof Form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));
  const field = (key: keyof Form) => <TextField key={key} label={t(`billing.${key}`)} value={form[key]} onChange={set(key)} error={errors[key]} />;

  function next(e?: FormEvent) {
    e?.preventDefault();
    if (step === 0) {
      const problems = stepOneErrors();
      setErrors(problems);
      if (Object.keys(problems).length) return;
    }
    if (step < STEPS.length - 1) setStep(step + 1);
    else void pay();
  }

  /** spec/03 §5 step 1: the server's own checkout schema (sync/), its messages in the reader's language. */
  function stepOneErrors(): Partial<Record<keyof Form, string>> {
    const parsed = checkoutSchema.safeParse({ ...form, invoiceId: invoice.id });
    if (parsed.success) return {};
    const problems: Partial<Record<keyof Form, string>> = {};
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] as keyof Form;
      if (!(key in form) || problems[key]) continue;
      problems[key] = !form[key].trim() ? t('validation.required') : key === 'zipcode' ? t('billing.invalidZip') : t('validation.tooLong');
    }
    return problems;
  }

  async function pay() {
    setBusy(true);
    try {
      setCharge(await api.post<PixCharge>('/subscription', { ...form, invoiceId: invoice.id, plan: company?.plan?.name, price: invoice.value, users: company?.plan?.users, connections: company?.plan?.connections }));
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  }

  async function copy() {
    if (!charge) return;
    await navigator.clipboard?.writeText(charge.qrcode.qrcode).catch(() => undefined);
    toast.success(t('billing.copied'));
  }

  const amount = formatCents(invoice.valueCents, i18n.language);
  let body;
  let footer;
  if (paidUntil) {
    body = (
      <div role="status" className="space-y-2 py-4 text-center">
        <p className="text-lg font-semibold text-brand">{t('billing.paidTitle')}</p>
        <p>{t('billing.paidText', { date: formatDate(paidUntil, i18n.language) })}</p>
      </div>
    );
  } else if (charge) {
    body = (
      <div className="space-y-3 text-center">
        <p className="text-sm text-muted">{t('billing.pixScan')}</p>
        <p>
          {t('billing.pixAmount')}: <strong data-testid="pix-amount">{formatCents(Math.round(Number(charge.valor.original) * 100), i18n.language)}</strong>
        </p>
        {image && <img src={image} width={256} height={256} alt={t('billing.pixTitle')} className="mx-auto" />}
        <label className="block text-left text-[13px] font-medium" htmlFor="pix-code">
          {t('billing.pixCode')}
        </label>
        <textarea id="pix-code" readOnly rows={4} value={charge.qrcode.qrcode} className="w-full rounded-md border border-line bg-raised p-2 font-mono text-xs break-all" />
        <p className="text-sm text-muted">{t('billing.waiting')}</p>
      </div>
    );
    footer = (
      <Button icon="copy" onClick={() => void copy()}>
        {t('billing.copy')}
      </Button>
    );
  } else {
    const stepName = STEPS[step]!;
    body = (
      <div className="space-y-4">
        <ol className="flex gap-2 text-sm" aria-label={t('billing.checkoutTitle')}>
          {STEPS.map((s, i) => (
            <li key={s} aria-current={i === step ? 'step' : undefined} className={`rounded-full px-3 py-1 ${i === step ? 'bg-brand text-on-brand' : 'bg-raised text-muted'}`}>
              {i + 1}. {t(`billing.step_${s}`)}
            </li>
          ))}
        </ol>
        {unavailable && (
          <p role="alert" className="rounded-md border border-danger/40 bg-danger-soft px-3 py-2 text-sm">
            {translateError('ERR_PIX_NOT_CONFIGURED', i18n.language)}
          </p>
        )}
        {stepName === 'data' && <div className="grid gap-3 sm:grid-cols-2">{(Object.keys(form) as (keyof Form)[]).map(field)}</div>}
        {stepName === 'customize' && (
          <dl className="grid grid-cols-2 gap-2 text-sm">
            <dt className="text-muted">{t('billing.plan')}</dt>
            <dd>{company?.plan?.name ?? '—'}</dd>
            <dt className="text-muted">{t('billing.users')}</dt>
            <dd>{company?.plan?.users ?? '—'}</dd>
            <dt className="text-muted">{t('billing.connections')}</dt>
            <dd>{company?.plan?.connections ?? '—'}</dd>
            <dt className="text-muted">{t('billing.recurrence')}</dt>
            <dd>{company ? t(`companies.recurrences.${company.recurrence}`, { defaultValue: company.recurrence }) : '—'}</dd>
          </dl>
        )}
        {stepName === 'review' && (
          <dl className="grid grid-cols-2 gap-2 text-sm">
            <dt className="text-muted">{t('billing.invoice')}</dt>
            <dd>
              #{invoice.id} · {invoiceDetailText(invoice.detail, i18n.language, (code) => t(`companies.recurrences.${code}`))}
            </dd>
            <dt className="text-muted">{t('billing.dueDate')}</dt>
            <dd>{formatDate(invoice.dueDate, i18n.language)}</dd>
            <dt className="text-muted">{t('billing.value')}</dt>
            <dd className="font-semibold">{amount}</dd>
            <dt className="text-muted">{t('billing.firstName')}</dt>
            <dd>{`${form.firstName} ${form.lastName}`.trim()}</dd>
            <dt className="text-muted">{t('billing.city')}</dt>
            <dd>{`${form.city} ${form.zipcode}`}</dd>
          </dl>
        )}
      </div>
    );
    footer = (
      <>
        {step > 0 && (
          <Button variant="secondary" onClick={() => setStep(step - 1)}>
            {t('billing.back')}
          </Button>
        )}
        <Button type="submit" busy={busy} disabled={busy || (unavailable && step === STEPS.length - 1)}>
          {step === STEPS.length - 1 ? `${t('billing.payNow')} ${amount}` : t('billing.next')}
        </Button>
      </>
    );
  }

  return (
    <Dialog open title={charge ? t('billing.pixTitle') : t('billing.checkoutTitle')} onClose={onClose} size="lg" footer={footer} {...(!charge && !paidUntil ? { onSubmit: next } : {})}>
      {body}
    </Dialog>
  );
}
