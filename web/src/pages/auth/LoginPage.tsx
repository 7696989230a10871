// /login (spec/01 §2, §4): email and password; the expired-subscription refusal shown with its date;
// the fewer-than-5-days warning after a successful login; why the app signed this tab out, when it did.
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { loginSchema } from '@zapdesk/sync';
import { AppError } from '../../api/client.ts';
import { formatDate } from '../../forms/format.ts';
import { validate, type FieldErrors } from '../../forms/validate.ts';
import { useSession } from '../../session/SessionProvider.tsx';
import { forgetSignOut, signOutMessage } from '../../session/storage.ts';
import { Button } from '../../ui/Button.tsx';
import { PasswordField, TextField } from '../../ui/Field.tsx';
import { toast } from '../../ui/toast/store.ts';
import { toastError } from '../../ui/toast/toast-error.ts';
import { AuthShell } from './AuthShell.tsx';

export function Component() {
  const { t, i18n } = useTranslation();
  const { login } = useSession();
  const navigate = useNavigate();
  const [values, setValues] = useState({ email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  // Signed out on its own (accessed on another computer): said here too, after the reload.
  const [refusal, setRefusal] = useState<string | null>(signOutMessage);
  useEffect(forgetSignOut, []);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = validate(loginSchema, values, t);
    setErrors(parsed.ok ? {} : parsed.errors);
    if (!parsed.ok) return;
    setBusy(true);
    setRefusal(null);
    try {
      const session = await login(parsed.data.email, parsed.data.password);
      const days = session.subscription.daysLeft;
      if (session.subscription.expiresSoon && days !== null) toast.warning(t('login.expiresSoon', { count: Math.max(days, 0) }));
      navigate('/', { replace: true });
    } catch (err) {
      if (err instanceof AppError && err.code === 'ERR_SUBSCRIPTION_EXPIRED') {
        setRefusal(t('login.subscriptionExpired', { date: expiredOn(err, i18n.language) }));
      } else toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthShell
      title={t('login.title')}
      subtitle={t('login.subtitle')}
      footer={
        <>
          {t('login.noAccount')}{' '}
          <Link to="/signup" className="font-medium text-brand hover:underline">
            {t('login.signup')}
          </Link>
        </>
      }
    >
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        {refusal && (
          <p role="alert" className="rounded-md border border-danger/30 bg-danger-soft px-3 py-2.5 text-sm text-danger">
            {refusal}
          </p>
        )}
        <TextField
          label={t('login.email')}
          type="email"
          name="email"
          autoComplete="username"
          autoFocus
          value={values.email}
          error={errors.email}
          onChange={(e) => setValues((v) => ({ ...v, email: e.target.value }))}
        />
        <PasswordField
          label={t('login.password')}
          name="password"
          autoComplete="current-password"
          value={values.password}
          error={errors.password}
          onChange={(e) => setValues((v) => ({ ...v, password: e.target.value }))}
        />
        <div className="flex justify-end">
          <Link to="/forgetpsw" className="text-sm text-brand hover:underline">
            {t('login.forgot')}
          </Link>
        </div>
        <Button type="submit" busy={busy} className="w-full">
          {t('login.submit')}
        </Button>
      </form>
    </AuthShell>
  );
}

/**
 * The due date of an expiry refusal: the body's dueDate when the client passes it on, else the
 * dd/mm/yyyy date the server writes in its message.
 */
function expiredOn(err: AppError, language: string): string {
  const due = err.details?.dueDate;
  if (typeof due === 'string') return formatDate(due, language);
  return /\d{2}\/\d{2}\/\d{4}/.exec(err.message)?.[0] ?? '—';
}
