// /campaigns-config (spec/03 §2 "Campaign settings", §9): the send intervals (messageInterval
// offered 0, 5, 10, 15, 20 s; the longer pause after 0-120 messages and of 0-120 s), our pacing
// limits (jitter, hourly and daily caps, a sending window in a time zone), the do-not-contact tag,
// when a campaign opens a ticket, and the custom variables. Saved together with
// POST /campaign-settings { settings } (server/src/modules/campaigns/README.md).
import { useEffect, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { campaignSettingsSchema, isReservedVariable, isTimeZone, LONGER_INTERVAL_OPTIONS, MESSAGE_INTERVAL_OPTIONS, type CampaignSettings } from '@zapdesk/sync';
import { api } from '../../api/client.ts';
import { useSaveForm } from '../../forms/useSaveForm.tsx';
import { useResource } from '../../hooks/use-resource.ts';
import { useSyncedList } from '../../sync/use-synced.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import { SelectField, Switch, TextField } from '../../ui/Field.tsx';
import { Card, Page } from '../../ui/Page.tsx';
import { Splash } from '../../ui/Splash.tsx';
import { settingsFromRows } from './campaign-form.ts';
import { loadCampaignSettings } from './use-campaign-options.ts';
import './strings.ts';

type Rows = { key: string; value: string }[];

/** The offered values, plus the saved one when the API set another. */
const choices = (offered: readonly number[], current: number) => [...new Set([...offered, current])].sort((a, b) => a - b);

export function Component() {
  const { t } = useTranslation();
  const loaded = useResource(loadCampaignSettings, []);
  const [form, setForm] = useState<CampaignSettings | null>(null);
  useEffect(() => {
    if (loaded.data) setForm(loaded.data);
  }, [loaded.data]);
  const { errors, busy, submit } = useSaveForm<Rows>((rows) => setForm(settingsFromRows(rows)));
  const [extraErrors, setExtraErrors] = useState<Record<string, string>>({});
  if (!form) return <Splash inline />;

  const set = <K extends keyof CampaignSettings>(key: K, value: CampaignSettings[K]) => setForm((f) => f && { ...f, [key]: value });
  const error = (key: string) => extraErrors[key] ?? errors[key] ?? errors[`settings.${key}`];

  const save = () => {
    const local: Record<string, string> = {};
    if (form.timeZone && !isTimeZone(form.timeZone)) local.timeZone = t('campaigns.badTimeZone');
    if (!form.sendWindowStart !== !form.sendWindowEnd) local[form.sendWindowStart ? 'sendWindowEnd' : 'sendWindowStart'] = t('campaigns.windowBoth');
    setExtraErrors(local);
    if (Object.keys(local).length) return;
    void submit(campaignSettingsSchema, form, () => api.post<Rows>('/campaign-settings', { settings: form }));
  };

  const seconds = (n: number) => ({ value: String(n), label: t('campaigns.seconds', { count: n }) });
  const number = (key: 'messageJitter' | 'hourlyLimit' | 'dailyLimit', label: string) => (
    <TextField label={label} name={key} type="number" min={0} inputMode="numeric" value={String(form[key])} error={error(key)} onChange={(e) => set(key, e.target.value === '' ? 0 : Number(e.target.value))} />
  );

  return (
    <Page
      title={t('campaigns.settingsTitle')}
      actions={
        <Button icon="check" busy={busy} onClick={save}>
          {t('common.save')}
        </Button>
      }
    >
      <form
        noValidate
        className="grid gap-5 lg:grid-cols-2"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <Section title={t('campaigns.intervals')}>
          <SelectField
            label={t('campaigns.messageInterval')}
            name="messageInterval"
            value={String(form.messageInterval)}
            error={error('messageInterval')}
            options={choices(MESSAGE_INTERVAL_OPTIONS, form.messageInterval).map(seconds)}
            onChange={(e) => set('messageInterval', Number(e.target.value))}
          />
          <SelectField
            label={t('campaigns.longerIntervalAfter')}
            name="longerIntervalAfter"
            value={String(form.longerIntervalAfter)}
            error={error('longerIntervalAfter')}
            options={choices(LONGER_INTERVAL_OPTIONS, form.longerIntervalAfter).map((n) => ({ value: String(n), label: n === 0 ? t('campaigns.never') : String(n) }))}
            onChange={(e) => set('longerIntervalAfter', Number(e.target.value))}
          />
          <SelectField
            label={t('campaigns.greaterInterval')}
            name="greaterInterval"
            value={String(form.greaterInterval)}
            error={error('greaterInterval')}
            options={choices(LONGER_INTERVAL_OPTIONS, form.greaterInterval).map(seconds)}
            onChange={(e) => set('greaterInterval', Number(e.target.value))}
          />
          {number('messageJitter', t('campaigns.messageJitter'))}
        </Section>
        <Section title={t('campaigns.limits')}>
          {number('hourlyLimit', t('campaigns.hourlyLimit'))}
          {number('dailyLimit', t('campaigns.dailyLimit'))}
          <fieldset className="flex min-w-0 flex-col gap-2">
            <legend className="mb-1 text-[13px] font-medium">{t('campaigns.sendWindow')}</legend>
            <div className="grid grid-cols-2 gap-3">
              <TextField label={t('campaigns.sendWindowStart')} name="sendWindowStart" type="time" value={form.sendWindowStart ?? ''} error={error('sendWindowStart')} onChange={(e) => set('sendWindowStart', e.target.value || null)} />
              <TextField label={t('campaigns.sendWindowEnd')} name="sendWindowEnd" type="time" value={form.sendWindowEnd ?? ''} error={error('sendWindowEnd')} onChange={(e) => set('sendWindowEnd', e.target.value || null)} />
            </div>
            <p className="text-xs text-muted">{t('campaigns.sendWindowHint')}</p>
          </fieldset>
          <TimeZoneField value={form.timeZone ?? ''} error={error('timeZone')} onChange={(v) => set('timeZone', v.trim() || null)} />
        </Section>
        <ContactRules form={form} set={set} />
        <Confirmations form={form} set={set} error={error} />
        <Variables variables={form.variables} onChange={(v) => set('variables', v)} />
        <button type="submit" hidden />
      </form>
    </Page>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card className="flex flex-col gap-4 p-4">
      <h2 className="text-sm font-semibold">{title}</h2>
      {children}
    </Card>
  );
}

function TimeZoneField({ value, error, onChange }: { value: string; error: string | undefined; onChange: (v: string) => void }) {
  const { t } = useTranslation();
  const [zones] = useState(() => (typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []));
  return (
    <>
      <TextField label={t('campaigns.timeZone')} name="timeZone" list="campaign-time-zones" placeholder="America/Sao_Paulo" value={value} error={error} hint={t('campaigns.timeZoneHint')} onChange={(e) => onChange(e.target.value)} />
      <datalist id="campaign-time-zones">
        {zones.map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
    </>
  );
}

type SetField = <K extends keyof CampaignSettings>(key: K, value: CampaignSettings[K]) => void;

function ContactRules({ form, set }: { form: CampaignSettings; set: SetField }) {
  const { t } = useTranslation();
  const tags = useSyncedList('tag') ?? [];
  return (
    <Section title={t('campaigns.contactRules')}>
      <SelectField
        label={t('campaigns.doNotContactTag')}
        name="doNotContactTagId"
        value={form.doNotContactTagId ? String(form.doNotContactTagId) : ''}
        options={[{ value: '', label: t('campaigns.none') }, ...tags.map((tag) => ({ value: String(tag.id), label: tag.name })).sort((a, b) => a.label.localeCompare(b.label))]}
        onChange={(e) => set('doNotContactTagId', e.target.value ? Number(e.target.value) : null)}
      />
      <Switch label={t('campaigns.ticketOnReplyOnly')} checked={form.ticketOnReplyOnly} onChange={(v) => set('ticketOnReplyOnly', v)} />
    </Section>
  );
}

/** Confirmation campaigns: the answer to an unclear reply (sent once) and how long a confirmation waits. */
function Confirmations({ form, set, error }: { form: CampaignSettings; set: SetField; error: (key: string) => string | undefined }) {
  const { t } = useTranslation();
  return (
    <Section title={t('campaigns.confirmations')}>
      <TextField
        label={t('campaigns.confirmationUnclearReply')}
        name="confirmationUnclearReply"
        value={form.confirmationUnclearReply}
        hint={t('campaigns.confirmationUnclearReplyHint')}
        error={error('confirmationUnclearReply')}
        onChange={(e) => set('confirmationUnclearReply', e.target.value)}
      />
      <TextField
        label={t('campaigns.confirmationTimeoutHours')}
        name="confirmationTimeoutHours"
        type="number"
        min={0}
        inputMode="numeric"
        value={String(form.confirmationTimeoutHours)}
        hint={t('campaigns.confirmationTimeoutHoursHint')}
        error={error('confirmationTimeoutHours')}
        onChange={(e) => set('confirmationTimeoutHours', e.target.value === '' ? 0 : Number(e.target.value))}
      />
    </Section>
  );
}

/** Custom variables: a shortcut already present is not added again (spec/03 §5). */
function Variables({ variables, onChange }: { variables: CampaignSettings['variables']; onChange: (v: CampaignSettings['variables']) => void }) {
  const { t } = useTranslation();
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const add = () => {
    const k = key.trim();
    if (isReservedVariable(k)) return setError(t('campaigns.variableBuiltIn', { key: k }));
    const parsed = campaignSettingsSchema.shape.variables.element.safeParse({ key: k, value });
    if (!parsed.success) return setError(k ? t('validation.invalid') : t('validation.required'));
    if (variables.some((v) => v.key === k)) return setError(t('campaigns.variableExists'));
    onChange([...variables, parsed.data]);
    setKey('');
    setValue('');
    setError(undefined);
  };
  // Enter in these fields adds the variable instead of saving the page.
  const onEnter = (e: KeyboardEvent) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    add();
  };
  return (
    <Section title={t('campaigns.customVariables')}>
      <p className="text-xs text-muted">{t('campaigns.customVariablesHint')}</p>
      {variables.length === 0 ? (
        <p className="text-sm text-muted">{t('campaigns.noVariables')}</p>
      ) : (
        <ul className="flex flex-col divide-y divide-line rounded-md border border-line">
          {variables.map((v) => (
            <li key={v.key} className="flex items-center gap-3 px-3 py-1.5 text-sm">
              <code className="font-mono text-brand">{`{${v.key}}`}</code>
              <span className="min-w-0 flex-1 truncate">{v.value}</span>
              <IconButton icon="trash" tone="danger" label={t('campaigns.removeVariable', { key: v.key })} onClick={() => onChange(variables.filter((x) => x.key !== v.key))} />
            </li>
          ))}
        </ul>
      )}
      <div className="grid grid-cols-[minmax(0,1fr)_minmax(0,1.5fr)_auto] items-start gap-2">
        <TextField label={t('campaigns.variableKey')} name="variableKey" value={key} error={error} onKeyDown={onEnter} onChange={(e) => setKey(e.target.value)} />
        <TextField label={t('campaigns.variableValue')} name="variableValue" value={value} onKeyDown={onEnter} onChange={(e) => setValue(e.target.value)} />
        <Button variant="secondary" icon="plus" className="mt-[22px]" onClick={add}>
          {t('campaigns.addVariable')}
        </Button>
      </div>
    </Section>
  );
}
