// The prompt and integration pickers of the connection and queue modals (spec/03 §2, §3: promptId,
// integrationId). Each shows only when the plan has its feature (the server refuses a link
// otherwise); "None" unlinks. Lists come from REST and follow pokes.
import { useTranslation } from 'react-i18next';
import { planAllows } from '@zapdesk/sync';
import { useSession } from '../../session/SessionProvider.tsx';
import { SelectField } from '../../ui/Field.tsx';
import { useSyncedList } from '../../sync/use-synced.ts';
import { usePrompts } from '../prompts/use-prompts.ts';
import { useAllIntegrations } from './use-integrations.ts';
import '../prompts/strings.ts';
import './strings.ts';

export type AutomationLinks = { promptId: string; integrationId: string };

/** The links of a saved row as form values ('' for none). */
export const automationValues = (row: { promptId: number | null; integrationId: number | null } | null): AutomationLinks => ({
  promptId: row?.promptId ? String(row.promptId) : '',
  integrationId: row?.integrationId ? String(row.integrationId) : '',
});

/** What a save sends: only the links the plan allows, so a hidden link is never cleared by accident. */
export function useAutomationBody(values: AutomationLinks): Partial<AutomationLinks> {
  const { flags } = useSession();
  const prompts = planAllows(flags ?? null, 'openAi');
  const integrations = planAllows(flags ?? null, 'integrations');
  return { ...(prompts ? { promptId: values.promptId } : {}), ...(integrations ? { integrationId: values.integrationId } : {}) };
}

/**
 * Where each prompt or integration is used: the queues and connections whose `link` names it, from
 * the synced lists ("queue Sales", "connection Line 1"). A new one is used nowhere until one picks it.
 */
export function useLinkedPlaces(link: keyof AutomationLinks): (id: number) => string[] {
  const { t } = useTranslation();
  const queues = useSyncedList('queue') ?? [];
  const connections = useSyncedList('connection') ?? [];
  return (id) => [
    ...queues.filter((q) => q[link] === id).map((q) => t('prompts.inQueue', { name: q.name })),
    ...connections.filter((c) => c[link] === id).map((c) => t('prompts.inConnection', { name: c.name })),
  ];
}

type Props = { values: AutomationLinks; errors: Record<string, string>; onChange: (values: AutomationLinks) => void };

export function AutomationPickers({ values, errors, onChange }: Props) {
  const { t } = useTranslation();
  const { prompts, allowed: promptsAllowed } = usePrompts();
  const { integrations, allowed: integrationsAllowed } = useAllIntegrations();
  if (!promptsAllowed && !integrationsAllowed) return null;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {integrationsAllowed && (
        <SelectField
          label={t('queue-integration.picker')}
          name="integrationId"
          value={values.integrationId}
          error={errors.integrationId}
          onChange={(e) => onChange({ ...values, integrationId: e.target.value })}
          options={[{ value: '', label: t('queue-integration.none') }, ...integrations.map((i) => ({ value: String(i.id), label: `${i.name} (${i.type})` }))]}
        />
      )}
      {promptsAllowed && (
        <SelectField
          label={t('prompts.picker')}
          name="promptId"
          value={values.promptId}
          error={errors.promptId}
          onChange={(e) => onChange({ ...values, promptId: e.target.value })}
          options={[{ value: '', label: t('prompts.none') }, ...prompts.map((p) => ({ value: String(p.id), label: p.name }))]}
        />
      )}
    </div>
  );
}
