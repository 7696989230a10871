// Add or edit a connection (spec/03 §2): tabs General, Messages, Assessments, Integrations and
// Business hours. A new connection's session is started at once, so its QR code comes up.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CONNECTION_DEFAULTS, CONNECTION_PROVIDERS, whatsappCreateSchema, whatsappUpdateSchema, type Connection, type Schedule } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { SaveCancelFooter, useSaveForm } from '../../forms/useSaveForm.tsx';
import { useSyncedList } from '../../sync/use-synced.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { SelectField, Switch, TextAreaField, TextField } from '../../ui/Field.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
import { toastError } from '../../ui/toast/toast-error.ts';
import { QueuePicker } from '../users/QueuePicker.tsx';
import { fullWeek, HoursEditor } from '../../forms/HoursEditor.tsx';
import { AutomationPickers, automationValues, useAutomationBody } from '../queue-integration/AutomationPickers.tsx';
import './strings.ts';

type Tab = 'general' | 'messages' | 'assessments' | 'integrations' | 'hours';
const TABS: Tab[] = ['general', 'messages', 'assessments', 'integrations', 'hours'];

/** The tab that holds a field, so a refused save shows the field that needs work. */
const TAB_OF: Record<string, Tab> = {
  greetingMessage: 'messages',
  complationMessage: 'messages',
  outOfHoursMessage: 'messages',
  expiresInactiveMessage: 'messages',
  ratingMessage: 'assessments',
  expiresTicket: 'integrations',
  timeUseBotQueues: 'integrations',
  maxUseBotQueues: 'integrations',
  transferQueueId: 'integrations',
  timeToTransfer: 'integrations',
  promptId: 'integrations',
  integrationId: 'integrations',
  schedules: 'hours',
};

type Values = {
  name: string;
  isDefault: boolean;
  provider: string;
  token: string;
  queueIds: number[];
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  expiresInactiveMessage: string;
  ratingMessage: string;
  expiresTicket: string;
  timeUseBotQueues: string;
  maxUseBotQueues: string;
  transferQueueId: string;
  timeToTransfer: string;
  schedules: Schedule[];
};

function initialValues(c: Connection | null): Values {
  const text = (v: string | null | undefined) => v ?? '';
  return {
    name: c?.name ?? '',
    isDefault: c?.isDefault ?? false,
    provider: c?.provider ?? CONNECTION_DEFAULTS.provider,
    token: text(c?.token),
    queueIds: c?.queueIds ?? [],
    greetingMessage: text(c?.greetingMessage),
    complationMessage: text(c?.complationMessage),
    outOfHoursMessage: text(c?.outOfHoursMessage),
    expiresInactiveMessage: text(c?.expiresInactiveMessage),
    ratingMessage: text(c?.ratingMessage),
    expiresTicket: String(c?.expiresTicket ?? CONNECTION_DEFAULTS.expiresTicket),
    timeUseBotQueues: String(c?.timeUseBotQueues ?? CONNECTION_DEFAULTS.timeUseBotQueues),
    maxUseBotQueues: String(c?.maxUseBotQueues ?? CONNECTION_DEFAULTS.maxUseBotQueues),
    transferQueueId: c?.transferQueueId ? String(c.transferQueueId) : '',
    timeToTransfer: String(c?.timeToTransfer ?? CONNECTION_DEFAULTS.timeToTransfer),
    schedules: fullWeek(c?.schedules),
  };
}

type Props = { connection: Connection | null; onClose: () => void; onSaved: (saved: Connection) => void };

export function ConnectionModal({ connection, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const queues = useSyncedList('queue') ?? [];
  const [values, setValues] = useState(() => initialValues(connection));
  const [tab, setTab] = useState<Tab>('general');
  const [links, setLinks] = useState(() => automationValues(connection));
  const linkBody = useAutomationBody(links);
  const { errors, busy, submit } = useSaveForm<Connection>(onSaved);

  const set = (field: keyof Values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));

  const save = async () => {
    const body = { ...values, token: values.token.trim(), ...linkBody };
    const schema = connection ? whatsappUpdateSchema : whatsappCreateSchema;
    const firstBad = schema.safeParse(body).error?.issues[0]?.path[0];
    if (firstBad !== undefined) setTab(TAB_OF[String(firstBad)] ?? 'general');
    await submit(schema, body, async () => {
      if (connection) return api.put<Connection>(`/whatsapp/${connection.id}`, body);
      const created = await api.post<Connection>('/whatsapp', body);
      // Like the original product: a new connection starts its session, so the QR code shows.
      await api.post(`/whatsappsession/${created.id}`).catch(toastError);
      return created;
    });
  };

  const number = (field: 'expiresTicket' | 'timeUseBotQueues' | 'maxUseBotQueues' | 'timeToTransfer', hint?: string) => (
    <TextField label={t(`connections.${field}`)} name={field} type="number" min={0} inputMode="numeric" value={values[field]} error={errors[field]} hint={hint} onChange={set(field)} />
  );
  const message = (field: 'greetingMessage' | 'complationMessage' | 'outOfHoursMessage' | 'expiresInactiveMessage' | 'ratingMessage', hint?: string) => (
    <TextAreaField label={t(`connections.${field}`)} name={field} value={values[field]} error={errors[field]} hint={hint} onChange={set(field)} />
  );

  return (
    <Dialog open size="lg" title={connection ? t('connections.edit') : t('connections.new')} onClose={onClose} onSubmit={() => void save()} footer={<SaveCancelFooter busy={busy} onCancel={onClose} />}>
      <Tabs label={connection ? t('connections.edit') : t('connections.new')} tabs={TABS.map((key) => ({ key, label: t(`connections.tabs.${key}`) }))} active={tab} onChange={setTab} />
      <div role="tabpanel" aria-label={t(`connections.tabs.${tab}`)} className="grid gap-4 pt-4">
        {tab === 'general' && (
          <>
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField label={t('connections.name')} name="name" autoFocus value={values.name} error={errors.name} onChange={set('name')} />
              <SelectField
                label={t('connections.provider')}
                name="provider"
                value={values.provider}
                onChange={set('provider')}
                options={CONNECTION_PROVIDERS.map((p) => ({ value: p, label: t(`connections.providers.${p}`) }))}
              />
            </div>
            <Switch label={t('connections.isDefault')} checked={values.isDefault} onChange={(isDefault) => setValues((v) => ({ ...v, isDefault }))} />
            <QueuePicker value={values.queueIds} onChange={(queueIds) => setValues((v) => ({ ...v, queueIds }))} />
            <TextField label={t('connections.token')} name="token" autoComplete="off" value={values.token} error={errors.token} hint={t('connections.tokenHint')} onChange={set('token')} />
          </>
        )}
        {tab === 'messages' && (
          <>
            {message('greetingMessage')}
            {message('complationMessage')}
            {message('outOfHoursMessage')}
            {message('expiresInactiveMessage')}
          </>
        )}
        {tab === 'assessments' && message('ratingMessage', t('connections.ratingHint'))}
        {tab === 'integrations' && (
          <>
            <AutomationPickers values={links} errors={errors} onChange={setLinks} />
            <div className="grid gap-4 sm:grid-cols-2">
              {number('expiresTicket', t('connections.zeroOff'))}
              {number('timeUseBotQueues', t('connections.zeroOff'))}
              {number('maxUseBotQueues')}
              <div />
              <SelectField
                label={t('connections.transferQueue')}
                name="transferQueueId"
                value={values.transferQueueId}
                error={errors.transferQueueId}
                onChange={set('transferQueueId')}
                options={[{ value: '', label: t('connections.none') }, ...queues.map((q) => ({ value: String(q.id), label: q.name }))]}
              />
              {number('timeToTransfer', t('connections.zeroOff'))}
            </div>
          </>
        )}
        {tab === 'hours' && <HoursEditor days={values.schedules} errors={errors} intro={t('connections.hoursIntro')} onChange={(schedules) => setValues((v) => ({ ...v, schedules }))} />}
      </div>
    </Dialog>
  );
}
