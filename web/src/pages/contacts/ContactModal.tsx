// Add or edit a contact (spec/02 §5: name 2-50, number 8-50, email valid when given) with its
// extra-info list of name/value pairs.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { contactCreateSchema, type Contact } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { SaveCancelFooter, useSaveForm } from '../../forms/useSaveForm.tsx';
import { Button, IconButton } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { TextField } from '../../ui/Field.tsx';

type Props = { contact: Contact | null; onClose: () => void; onSaved: (contact: Contact) => void };
type Extra = { id?: number; name: string; value: string };

export function ContactModal({ contact, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [values, setValues] = useState({ name: contact?.name ?? '', number: contact?.number ?? '', email: contact?.email ?? '' });
  const [extra, setExtra] = useState<Extra[]>(() => contact?.extraInfo.map((x) => ({ ...x })) ?? []);
  const { errors, busy, submit } = useSaveForm<Contact>(onSaved);

  const set = (field: keyof typeof values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));
  const setExtraAt = (i: number, patch: Partial<Extra>) => setExtra((list) => list.map((x, j) => (j === i ? { ...x, ...patch } : x)));

  const save = async () => {
    // Rows left blank are dropped rather than refused.
    const body = { ...values, extraInfo: extra.filter((x) => x.name.trim() !== '' || x.value.trim() !== '') };
    await submit(contactCreateSchema, body, () => (contact ? api.put<Contact>(`/contacts/${contact.id}`, body) : api.post<Contact>('/contacts', body)));
  };

  return (
    <Dialog open title={contact ? t('contacts.edit') : t('contacts.new')} onClose={onClose} onSubmit={() => void save()} footer={<SaveCancelFooter busy={busy} onCancel={onClose} />}>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label={t('contacts.name')} name="name" autoFocus value={values.name} error={errors.name} onChange={set('name')} />
        <TextField label={t('contacts.number')} name="number" inputMode="tel" value={values.number} error={errors.number} hint={t('contacts.numberHint')} onChange={set('number')} />
        <TextField label={t('contacts.email')} name="email" type="email" wrapperClassName="sm:col-span-2" value={values.email} error={errors.email} onChange={set('email')} />
      </div>
      <fieldset className="mt-5">
        <legend className="text-[13px] font-medium">{t('contacts.extraInfo')}</legend>
        <ul className="mt-2 flex flex-col gap-3">
          {extra.map((x, i) => (
            <li key={x.id ?? `new-${i}`} className="flex items-end gap-2">
              <TextField label={t('contacts.extraName')} wrapperClassName="flex-1" value={x.name} error={errors[`extraInfo.${i}.name`]} onChange={(e) => setExtraAt(i, { name: e.target.value })} />
              <TextField label={t('contacts.extraValue')} wrapperClassName="flex-1" value={x.value} error={errors[`extraInfo.${i}.value`]} onChange={(e) => setExtraAt(i, { value: e.target.value })} />
              <IconButton icon="trash" tone="danger" label={t('contacts.removeExtra', { index: i + 1 })} onClick={() => setExtra((list) => list.filter((_, j) => j !== i))} />
            </li>
          ))}
        </ul>
        <Button variant="secondary" icon="plus" className="mt-3" onClick={() => setExtra((list) => [...list, { name: '', value: '' }])}>
          {t('contacts.addExtra')}
        </Button>
      </fieldset>
    </Dialog>
  );
}
