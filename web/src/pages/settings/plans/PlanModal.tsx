// Create or edit a plan (super-admin). Feature switches default to on (spec/01 §3).
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PLAN_FEATURES, planCreateSchema, planUpdateSchema, type Plan, type PlanFlags } from '@zapdesk/sync';
import { api } from '../../../api/client.ts';
import { SaveCancelFooter, useSaveForm } from '../../../forms/useSaveForm.tsx';
import { Dialog } from '../../../ui/Dialog.tsx';
import { Switch, TextField } from '../../../ui/Field.tsx';

type Props = { plan: Plan | null; onClose: () => void; onSaved: (plan: Plan) => void };
type FlagKey = keyof PlanFlags;
const FLAGS = Object.values(PLAN_FEATURES) as FlagKey[];

export function PlanModal({ plan, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [values, setValues] = useState({
    name: plan?.name ?? '',
    users: String(plan?.users ?? 0),
    connections: String(plan?.connections ?? 0),
    queues: String(plan?.queues ?? 0),
    value: String(plan?.value ?? 0),
  });
  const [flags, setFlags] = useState<Record<FlagKey, boolean>>(() => Object.fromEntries(FLAGS.map((f) => [f, plan ? plan[f] : true])) as Record<FlagKey, boolean>);
  const [isPublic, setIsPublic] = useState(plan?.isPublic ?? true);
  const { errors, busy, submit } = useSaveForm<Plan>(onSaved);
  const set = (field: keyof typeof values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));

  const save = async () => {
    const body = { ...values, value: values.value.replace(',', '.'), isPublic, ...flags };
    await submit(plan ? planUpdateSchema : planCreateSchema, body, () => (plan ? api.put<Plan>(`/plans/${plan.id}`, body) : api.post<Plan>('/plans', body)));
  };

  return (
    <Dialog
      open
      size="lg"
      title={plan ? t('plans.edit') : t('plans.new')}
      onClose={onClose}
      onSubmit={() => void save()}
      footer={<SaveCancelFooter busy={busy} onCancel={onClose} />}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label={t('plans.name')} name="name" autoFocus wrapperClassName="sm:col-span-2" value={values.name} error={errors.name} onChange={set('name')} />
        <TextField label={t('plans.users')} name="users" inputMode="numeric" value={values.users} error={errors.users} onChange={set('users')} />
        <TextField label={t('plans.connections')} name="connections" inputMode="numeric" value={values.connections} error={errors.connections} onChange={set('connections')} />
        <TextField label={t('plans.queues')} name="queues" inputMode="numeric" value={values.queues} error={errors.queues} onChange={set('queues')} />
        <TextField label={t('plans.value')} name="value" inputMode="decimal" value={values.value} error={errors.value} onChange={set('value')} />
      </div>
      <fieldset className="mt-5">
        <legend className="mb-2 text-[13px] font-medium">{t('plans.features')}</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {FLAGS.map((f) => (
            <Switch key={f} label={t(`plans.flags.${f}`)} checked={flags[f]} onChange={(on) => setFlags((v) => ({ ...v, [f]: on }))} />
          ))}
          <Switch label={t('plans.isPublic')} checked={isPublic} onChange={setIsPublic} />
        </div>
      </fieldset>
    </Dialog>
  );
}
