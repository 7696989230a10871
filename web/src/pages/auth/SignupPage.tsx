// /signup (spec/01 §2, §5): a company with a plan from the public list and a 3-day trial.
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { SIGNUP_TRIAL_DAYS, signupSchema, type Plan } from '@zapdesk/sync';
import { AppError, publicApi } from '../../api/client.ts';
import { formatMoney, maskPhone } from '../../forms/format.ts';
import { serverFieldErrors, validate, type FieldErrors } from '../../forms/validate.ts';
import { Button } from '../../ui/Button.tsx';
import { PasswordField, SelectField, TextField } from '../../ui/Field.tsx';
import { toast } from '../../ui/toast/store.ts';
import { toastError } from '../../ui/toast/toast-error.ts';
import { AuthShell } from './AuthShell.tsx';

const EMPTY = { name: '', email: '', phone: '', password: '', planId: '' };

export function Component() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [plans, setPlans] = useState<Plan[] | null>(null);
  const [values, setValues] = useState(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    publicApi.get<Plan[]>('/plans/list').then(
      (list) => {
        setPlans(list);
        if (list.length === 1) setValues((v) => ({ ...v, planId: String(list[0]?.id) }));
      },
      (err) => {
        setPlans([]);
        toastError(err);
      },
    );
  }, []);

  const set = (field: keyof typeof EMPTY) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: field === 'phone' ? maskPhone(e.target.value) : e.target.value }));

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = validate(signupSchema, { ...values, phone: values.phone || undefined, recurrence: 'MENSAL' }, t);
    setErrors(parsed.ok ? {} : parsed.errors);
    if (!parsed.ok) return;
    setBusy(true);
    try {
      // The server decides the trial, status and campaigns flag; the spec's body is sent as written.
      const dueDate = new Date(Date.now() + SIGNUP_TRIAL_DAYS * 24 * 3600 * 1000).toISOString();
      const companyId = params.get('companyId');
      await publicApi.post('/companies/cadastro', {
        ...values,
        phone: values.phone || undefined,
        planId: Number(values.planId),
        recurrence: 'MENSAL',
        dueDate,
        status: true,
        campaignsEnabled: true,
        ...(companyId ? { companyId } : {}),
      });
      toast.success(t('signup.success'));
      navigate('/login');
    } catch (err) {
      if (err instanceof AppError && err.issues) setErrors(serverFieldErrors(err.issues));
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const planOptions = [
    { value: '', label: plans && plans.length === 0 ? t('signup.noPlans') : t('signup.selectPlan') },
    ...(plans ?? []).map((p) => ({
      value: String(p.id),
      label: t('signup.planOption', { name: p.name, users: p.users, connections: p.connections, value: formatMoney(p.value, i18n.language) }),
    })),
  ];

  return (
    <AuthShell
      title={t('signup.title')}
      subtitle={t('signup.subtitle')}
      footer={
        <>
          {t('signup.haveAccount')}{' '}
          <Link to="/login" className="font-medium text-brand hover:underline">
            {t('signup.login')}
          </Link>
        </>
      }
    >
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <TextField label={t('signup.name')} name="name" autoComplete="organization" autoFocus value={values.name} error={errors.name} onChange={set('name')} />
        <TextField label={t('signup.email')} type="email" name="email" autoComplete="email" value={values.email} error={errors.email} onChange={set('email')} />
        <TextField
          label={t('signup.phone')}
          type="tel"
          name="phone"
          inputMode="numeric"
          autoComplete="tel-national"
          placeholder="(99) 99999-9999"
          value={values.phone}
          error={errors.phone}
          onChange={set('phone')}
        />
        <PasswordField label={t('signup.password')} name="password" autoComplete="new-password" value={values.password} error={errors.password} onChange={set('password')} />
        <SelectField label={t('signup.plan')} name="planId" value={values.planId} error={errors.planId} options={planOptions} disabled={plans === null} onChange={set('planId')} />
        <Button type="submit" busy={busy} className="w-full">
          {t('signup.submit')}
        </Button>
      </form>
    </AuthShell>
  );
}
