// Add or edit a user (spec/03 users): profile, allTicket and "tickets without a queue" only where
// user-modal:editProfile allows, queues and the default connection only where user-modal:editQueues
// does (spec/02 §6), as the server enforces; also the signed-in user's profile modal.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { can, userCreateSchema, userUpdateSchema, type User } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { SaveCancelFooter, useSaveForm } from '../../forms/useSaveForm.tsx';
import { useUser } from '../../session/SessionProvider.tsx';
import { useSyncedList } from '../../sync/use-synced.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { PasswordField, SelectField, Switch, TextField } from '../../ui/Field.tsx';
import { QueuePicker } from './QueuePicker.tsx';

type Props = { open: boolean; user: User | null; title?: string; onClose: () => void; onSaved: (user: User) => void };

const blank = { name: '', email: '', password: '', profile: 'user', allTicket: 'desabled', showNoQueue: false, whatsappId: '', queueIds: [] as number[] };

export function UserModal({ open, user, title, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const me = useUser();
  const [values, setValues] = useState(() =>
    user
      ? {
          name: user.name,
          email: user.email,
          password: '',
          profile: user.profile,
          allTicket: user.allTicket,
          showNoQueue: user.showNoQueue,
          whatsappId: user.whatsappId === null ? '' : String(user.whatsappId),
          queueIds: user.queues.map((q) => q.id),
        }
      : blank,
  );
  const { errors, busy, submit } = useSaveForm<User>(onSaved);
  const editProfile = can(me, 'user-modal:editProfile');
  const editQueues = can(me, 'user-modal:editQueues');
  const connections = useSyncedList('connection') ?? [];

  const set = (field: 'name' | 'email' | 'password' | 'profile' | 'allTicket' | 'whatsappId') => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));

  const save = async () => {
    // Only what this user may change is sent: the server refuses the rest anyway.
    const body = {
      name: values.name,
      email: values.email,
      password: values.password,
      ...(editProfile ? { profile: values.profile, allTicket: values.allTicket, showNoQueue: values.showNoQueue } : {}),
      // '' is "no default connection" (the schema reads it as null).
      ...(editQueues ? { queueIds: values.queueIds, whatsappId: values.whatsappId } : {}),
    };
    await submit(user ? userUpdateSchema : userCreateSchema, body, () => (user ? api.put<User>(`/users/${user.id}`, body) : api.post<User>('/users', body)));
  };

  return (
    <Dialog
      open={open}
      title={title ?? (user ? t('users.edit') : t('users.new'))}
      onClose={onClose}
      onSubmit={() => void save()}
      footer={<SaveCancelFooter busy={busy} onCancel={onClose} />}
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
        {editProfile && (
          <div className="sm:col-span-2">
            <Switch label={t('users.showNoQueue')} checked={values.showNoQueue} onChange={(showNoQueue) => setValues((v) => ({ ...v, showNoQueue }))} />
          </div>
        )}
        {editQueues && (
          <SelectField
            label={t('users.whatsapp')}
            name="whatsappId"
            wrapperClassName="sm:col-span-2"
            value={values.whatsappId}
            error={errors.whatsappId}
            onChange={set('whatsappId')}
            options={[
              { value: '', label: t('users.noWhatsapp') },
              ...connections.map((c) => ({ value: String(c.id), label: c.name })),
              // A connection the local state does not hold (yet) stays choosable, by its number.
              ...(values.whatsappId && !connections.some((c) => String(c.id) === values.whatsappId) ? [{ value: values.whatsappId, label: `#${values.whatsappId}` }] : []),
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
