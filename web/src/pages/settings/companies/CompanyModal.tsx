// Create or edit a company (super-admin). With a password, creation also makes the first admin.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { companyCreateSchema, companyUpdateSchema, RECURRENCES, type Company, type Plan } from '@zapdesk/sync';
import { api } from '../../../api/client.ts';
import { maskPhone } from '../../../forms/format.ts';
import { SaveCancelFooter, useSaveForm } from '../../../forms/useSaveForm.tsx';
import { useResource } from '../../../hooks/use-resource.ts';
import { Dialog } from '../../../ui/Dialog.tsx';
import { PasswordField, SelectField, TextField } from '../../../ui/Field.tsx';

type Props = { company: Company | null; onClose: () => void; onSaved: (company: Company) => void };
type Values = { name: string; email: string; phone: string; planId: string; status: string; dueDate: string; recurrence: string; campaignsEnabled: string; password: string };

function initial(c: Company | null): Values {
  return {
    name: c?.name ?? '',
    email: c?.email ?? '',
    phone: maskPhone(c?.phone ?? ''),
    planId: c?.planId ? String(c.planId) : '',
    status: String(c?.status ?? true),
    dueDate: c?.dueDate?.slice(0, 10) ?? '',
    recurrence: c?.recurrence ?? 'MENSAL',
    campaignsEnabled: String(c?.campaignsEnabled ?? true),
    password: '',
  };
}

export function CompanyModal({ company, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const plans = useResource(() => api.get<Plan[]>('/plans/all'), []);
  const [values, setValues] = useState(() => initial(company));
  const { errors, busy, submit } = useSaveForm<Company>(onSaved);
  const set = (field: keyof Values) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: field === 'phone' ? maskPhone(e.target.value) : e.target.value }));

  const save = async () => {
    const body = {
      name: values.name,
      email: values.email,
      phone: values.phone,
      planId: values.planId,
      status: values.status,
      dueDate: values.dueDate || null,
      recurrence: values.recurrence,
      campaignsEnabled: values.campaignsEnabled,
      ...(company ? {} : { password: values.password }),
    };
    await submit(company ? companyUpdateSchema : companyCreateSchema, body, () => (company ? api.put<Company>(`/companies/${company.id}`, body) : api.post<Company>('/companies', body)));
  };

  const yesNo = (yes: string, no: string) => [
    { value: 'true', label: yes },
    { value: 'false', label: no },
  ];

  return (
    <Dialog
      open
      size="lg"
      title={company ? t('companies.edit') : t('companies.new')}
      onClose={onClose}
      onSubmit={() => void save()}
      footer={<SaveCancelFooter busy={busy} onCancel={onClose} />}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label={t('companies.name')} name="name" autoFocus value={values.name} error={errors.name} onChange={set('name')} />
        <TextField label={t('companies.email')} name="email" type="email" value={values.email} error={errors.email} onChange={set('email')} />
        <TextField label={t('companies.phone')} name="phone" type="tel" placeholder="(99) 99999-9999" value={values.phone} error={errors.phone} onChange={set('phone')} />
        <SelectField
          label={t('companies.plan')}
          name="planId"
          value={values.planId}
          error={errors.planId}
          onChange={set('planId')}
          options={[{ value: '', label: t('signup.selectPlan') }, ...(plans.data ?? []).map((p) => ({ value: String(p.id), label: p.name }))]}
        />
        <SelectField label={t('companies.status')} name="status" value={values.status} onChange={set('status')} options={yesNo(t('companies.active'), t('companies.inactive'))} />
        <TextField label={t('companies.dueDate')} name="dueDate" type="date" value={values.dueDate} error={errors.dueDate} onChange={set('dueDate')} />
        <SelectField
          label={t('companies.recurrence')}
          name="recurrence"
          value={values.recurrence}
          onChange={set('recurrence')}
          options={RECURRENCES.map((r) => ({ value: r, label: t(`companies.recurrences.${r}`) }))}
        />
        <SelectField
          label={t('companies.campaigns')}
          name="campaignsEnabled"
          value={values.campaignsEnabled}
          onChange={set('campaignsEnabled')}
          options={yesNo(t('settings.values.enabled'), t('settings.values.disabled'))}
        />
        {!company && (
          <PasswordField
            label={t('companies.adminPassword')}
            name="password"
            autoComplete="new-password"
            hint={t('companies.adminPasswordHint')}
            wrapperClassName="sm:col-span-2"
            value={values.password}
            error={errors.password}
            onChange={set('password')}
          />
        )}
      </div>
    </Dialog>
  );
}
