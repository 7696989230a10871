// Add or edit a queue (spec/03 §2): tabs Queue data and, only when the setting scheduleType is
// "queue", Service hours; the colour from 50 presets or typed; the chatbot options of a saved queue.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queueCreateSchema, queueUpdateSchema, type Queue } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { SaveCancelFooter, useSaveForm } from '../../forms/useSaveForm.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { TextAreaField, TextField } from '../../ui/Field.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
import { fullWeek, HoursEditor } from '../../forms/HoursEditor.tsx';
import { OptionsTree } from './OptionsTree.tsx';
import { QUEUE_PALETTE } from './palette.ts';
import { AutomationPickers, automationValues, useAutomationBody } from '../queue-integration/AutomationPickers.tsx';
import './strings.ts';

type Tab = 'data' | 'hours';
type Props = { queue: Queue | null; byQueue: boolean; onClose: () => void; onSaved: (saved: Queue) => void };

export function QueueModal({ queue, byQueue, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('data');
  const [values, setValues] = useState(() => ({
    name: queue?.name ?? '',
    color: queue?.color ?? QUEUE_PALETTE[Math.floor(Math.random() * QUEUE_PALETTE.length)]!,
    orderQueue: queue?.orderQueue === null || queue?.orderQueue === undefined ? '' : String(queue.orderQueue),
    greetingMessage: queue?.greetingMessage ?? '',
    outOfHoursMessage: queue?.outOfHoursMessage ?? '',
    schedules: fullWeek(queue?.schedules),
  }));
  const [links, setLinks] = useState(() => automationValues(queue));
  const linkBody = useAutomationBody(links);
  const { errors, busy, submit } = useSaveForm<Queue>(onSaved);
  const set = (field: 'name' | 'color' | 'orderQueue' | 'greetingMessage' | 'outOfHoursMessage') => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));

  const save = async () => {
    // Service hours are sent only where they are edited (scheduleType queue).
    const body = { ...(byQueue ? values : { ...values, schedules: undefined }), ...linkBody };
    const schema = queue ? queueUpdateSchema : queueCreateSchema;
    const bad = schema.safeParse(body).error?.issues[0]?.path[0];
    if (bad !== undefined) setTab(bad === 'schedules' ? 'hours' : 'data');
    await submit(schema, body, () => (queue ? api.put<Queue>(`/queue/${queue.id}`, body) : api.post<Queue>('/queue', body)));
  };

  const tabs = [{ key: 'data' as const, label: t('queues.tabs.data') }, ...(byQueue ? [{ key: 'hours' as const, label: t('queues.tabs.hours') }] : [])];
  return (
    <Dialog open size="lg" title={queue ? t('queues.edit') : t('queues.new')} onClose={onClose} onSubmit={() => void save()} footer={<SaveCancelFooter busy={busy} onCancel={onClose} />}>
      {byQueue && <Tabs label={queue ? t('queues.edit') : t('queues.new')} tabs={tabs} active={tab} onChange={setTab} />}
      <div role={byQueue ? 'tabpanel' : undefined} className={`grid gap-4 ${byQueue ? 'pt-4' : ''}`}>
        {tab === 'data' && (
          <>
            <div className="grid gap-4 sm:grid-cols-[1fr_9rem_7rem]">
              <TextField label={t('queues.name')} name="name" autoFocus value={values.name} error={errors.name} onChange={set('name')} />
              <div className="flex items-end gap-2">
                <TextField label={t('queues.color')} name="color" wrapperClassName="flex-1" value={values.color} error={errors.color} onChange={set('color')} />
                <span className="mb-0.5 size-8 shrink-0 rounded-md border border-line" style={{ backgroundColor: values.color }} aria-hidden="true" />
              </div>
              <TextField
                label={t('queues.orderQueue')}
                name="orderQueue"
                type="number"
                min={0}
                inputMode="numeric"
                title={t('queues.orderHint')}
                value={values.orderQueue}
                error={errors.orderQueue}
                onChange={set('orderQueue')}
              />
            </div>
            <fieldset>
              <legend className="mb-1.5 text-[13px] font-medium">{t('queues.palette')}</legend>
              <div className="grid grid-cols-10 gap-1.5 sm:w-fit">
                {QUEUE_PALETTE.map((color) => (
                  <button
                    key={color}
                    type="button"
                    aria-label={t('queues.colorPick', { color })}
                    aria-pressed={values.color.toLowerCase() === color}
                    onClick={() => setValues((v) => ({ ...v, color }))}
                    className="aspect-square w-full rounded-md border border-black/10 aria-pressed:ring-2 aria-pressed:ring-brand aria-pressed:ring-offset-2 aria-pressed:ring-offset-surface sm:size-7"
                    style={{ backgroundColor: color }}
                  />
                ))}
              </div>
            </fieldset>
            <TextAreaField label={t('queues.greetingMessage')} name="greetingMessage" value={values.greetingMessage} error={errors.greetingMessage} onChange={set('greetingMessage')} />
            <AutomationPickers values={links} errors={errors} onChange={setLinks} />
            {byQueue && (
              <TextAreaField label={t('queues.outOfHoursMessage')} name="outOfHoursMessage" value={values.outOfHoursMessage} error={errors.outOfHoursMessage} onChange={set('outOfHoursMessage')} />
            )}
            {queue ? <OptionsTree queueId={queue.id} /> : <p className="text-sm text-muted">{t('queues.options.saveFirst')}</p>}
          </>
        )}
        {tab === 'hours' && <HoursEditor days={values.schedules} errors={errors} intro={t('queues.hoursIntro')} onChange={(schedules) => setValues((v) => ({ ...v, schedules }))} />}
      </div>
    </Dialog>
  );
}
