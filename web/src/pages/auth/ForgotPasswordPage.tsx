// /forgetpsw (spec/01 §5, §7): step one mails a code; step two sets a new password with it.
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { forgotPasswordSchema, newPasswordSchema } from '@zapdesk/sync';
import { AppError, publicApi } from '../../api/client.ts';
import { validate, type FieldErrors } from '../../forms/validate.ts';
import { Button } from '../../ui/Button.tsx';
import { PasswordField, TextField } from '../../ui/Field.tsx';
import { toast } from '../../ui/toast/store.ts';
import { toastError } from '../../ui/toast/toast-error.ts';
import { AuthShell } from './AuthShell.tsx';

const resetStepSchema = z
  .object({ code: z.string().trim().min(1, 'Required'), password: newPasswordSchema, confirm: z.string().min(1, 'Required') })
  .refine((v) => v.password === v.confirm, { message: 'Passwords differ', path: ['confirm'] });

export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [values, setValues] = useState({ code: '', password: '', confirm: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  const sendCode = async (e?: FormEvent) => {
    e?.preventDefault();
    const parsed = validate(forgotPasswordSchema, { email }, t);
    setErrors(parsed.ok ? {} : parsed.errors);
    if (!parsed.ok) return;
    setBusy(true);
    try {
      await publicApi.post(`/forgetpassword/${encodeURIComponent(parsed.data.email)}`);
      setSentTo(parsed.data.email);
    } catch (err) {
      if (err instanceof AppError && err.status === 404) setErrors({ email: t('forgot.emailNotFound') });
      else toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const reset = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = validate(resetStepSchema, values, t);
    setErrors(parsed.ok ? {} : parsed.errors);
    if (!parsed.ok || !sentTo) return;
    setBusy(true);
    try {
      const path = [sentTo, parsed.data.code, parsed.data.password].map(encodeURIComponent).join('/');
      await publicApi.post(`/resetpasswords/${path}`);
      toast.success(t('forgot.success'));
      navigate('/login');
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  const back = (
    <Link to="/login" className="font-medium text-brand hover:underline">
      {t('forgot.backToLogin')}
    </Link>
  );

  if (!sentTo) {
    return (
      <AuthShell title={t('forgot.title')} subtitle={t('forgot.emailStep')} footer={back}>
        <form noValidate onSubmit={sendCode} className="space-y-4">
          <TextField label={t('forgot.email')} type="email" name="email" autoComplete="email" autoFocus value={email} error={errors.email} onChange={(e) => setEmail(e.target.value)} />
          <Button type="submit" busy={busy} className="w-full">
            {t('forgot.sendCode')}
          </Button>
        </form>
      </AuthShell>
    );
  }

  const set = (field: keyof typeof values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));
  return (
    <AuthShell title={t('forgot.title')} subtitle={t('forgot.codeSent', { email: sentTo })} footer={back}>
      <form noValidate onSubmit={reset} className="space-y-4">
        <TextField label={t('forgot.code')} name="code" autoComplete="one-time-code" inputMode="numeric" autoFocus value={values.code} error={errors.code} onChange={set('code')} />
        <PasswordField
          label={t('forgot.newPassword')}
          name="password"
          autoComplete="new-password"
          hint={t('forgot.passwordHint')}
          value={values.password}
          error={errors.password}
          onChange={set('password')}
        />
        <PasswordField label={t('forgot.confirmPassword')} name="confirm" autoComplete="new-password" value={values.confirm} error={errors.confirm} onChange={set('confirm')} />
        <Button type="submit" busy={busy} className="w-full">
          {t('forgot.submit')}
        </Button>
        <Button variant="ghost" className="w-full" disabled={busy} onClick={() => void sendCode()}>
          {t('forgot.resend')}
        </Button>
      </form>
    </AuthShell>
  );
}
