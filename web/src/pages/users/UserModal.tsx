// Add or edit a user (spec/03 users): profile and queues are editable only where the permission
// rules allow (user-modal:editProfile, user-modal:editQueues); also the signed-in user's profile modal.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { can, userCreateSchema, userUpdateSchema } from '@zapdesk/sync';
import { api, AppError } from '../../api/client.ts';
import { serverFieldErrors, validate, type FieldErrors } from '../../forms/validate.ts';
import { useUser } from '../../session/SessionProvider.tsx';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { PasswordField, SelectField, TextField } from '../../ui/Field.tsx';
import { toast } from '../../ui/toast/store.ts';
import { toastError } from '../../ui/toast/toast-error.ts';
import { QueuePicker } from './QueuePicker.tsx';
import type { UserRow } from './types.ts';

type Props = { open: boolean; user: UserRow | null; title?: string; onClose: () => void; onSaved: (user: UserRow) => void };

const blank = { name: '', email: '', password: '', profile: 'user', allTicket: 'desabled', queueIds: [] as number[] };

export function UserModal({ open, user, title, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const me = useUser();
  const [values, setValues] = useState(() =>
    user ? { name: user.name, email: user.email, password: '', profile: user.profile, allTicket: user.allTicket, queueIds: user.queues.map((q) => q.id) } : blank,
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const editProfile = can(me, 'user-modal:editProfile');
  const editQueues = can(me, 'user-modal:editQueues');

  const set = (field: 'name' | 'email' | 'password' | 'profile' | 'allTicket') => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));

  const save = async () => {
    // Only what this user may change is sent: the server refuses the rest anyway.
    const body = {
      name: values.name,
      email: values.email,
      password: values.password,
      ...(editProfile ? { profile: values.profile, allTicket: values.allTicket } : {}),
      ...(editQueues ? { queueIds: values.queueIds } : {}),
    };
    const parsed = validate(user ? userUpdateSchema : userCreateSchema, body, t);
    setErrors(parsed.ok ? {} : parsed.errors);
    if (!parsed.ok) return;
    setBusy(true);
    try {
      const saved = user ? await api.put<UserRow>(`/users/${user.id}`, body) : await api.post<UserRow>('/users', body);
      toast.success(t('common.saved'));
      onSaved(saved);
    } catch (err) {
      if (err instanceof AppError && err.issues) setErrors(serverFieldErrors(err.issues));
      toastError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      title={title ?? (user ? t('users.edit') : t('users.new'))}
      onClose={onClose}
      onSubmit={() => void save()}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" busy={busy}>
            {t('common.save')}
          </Button>
        </>
      }
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label={t('users.name')} name="name" autoFocus value={values.name} error={errors.name} onChange={set('name')} />
        <TextField label={t('users.email')} name="email" type="email" autoComplete="off" value={values.email} error={errors.email} onChange={set('email')} />
        <PasswordField
          label={t('users.password')}
          name="password"
          autoComplete="new-password"
          hint={user ? t('users.passwordKeep') : undefined}
          value={values.password}
          error={errors.password}
          onChange={set('password')}
        />
        {editProfile && (
          <SelectField
            label={t('users.profile')}
            name="profile"
            value={values.profile}
            onChange={set('profile')}
            options={(['admin', 'supervisor', 'user'] as const).map((p) => ({ value: p, label: t(`users.profiles.${p}`) }))}
          />
        )}
        {editProfile && (
          <SelectField
            label={t('users.allTicket')}
            name="allTicket"
            wrapperClassName="sm:col-span-2"
            value={values.allTicket}
            onChange={set('allTicket')}
            options={[
              { value: 'enabled', label: t('settings.values.enabled') },
              { value: 'desabled', label: t('settings.values.disabled') },
            ]}
          />
        )}
        {editQueues && (
          <div className="sm:col-span-2">
            <QueuePicker value={values.queueIds} known={user?.queues} onChange={(queueIds) => setValues((v) => ({ ...v, queueIds }))} />
          </div>
        )}
      </div>
    </Dialog>
  );
}
