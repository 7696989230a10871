// The one plan mapper (sync/src/domain/plan.ts): every plan answer and the plan inside the company
// (REST and company/<id> alike); booleans for the 0/1 flags, `value` in reais. And the way back: body → row.
import type { Plan, PlanFlags, PlanValues } from '@zapdesk/sync';
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Plans } from '../../db/schema.ts';

export function toPlanFlags(row: Selectable<Plans>): PlanFlags {
  return {
    useCampaigns: row.useCampaigns === 1,
    useSchedules: row.useSchedules === 1,
    useInternalChat: row.useInternalChat === 1,
    useExternalApi: row.useExternalApi === 1,
    useKanban: row.useKanban === 1,
    useOpenAi: row.useOpenAi === 1,
    useIntegrations: row.useIntegrations === 1,
  };
}

export function toPlanDto(row: Selectable<Plans>): Plan {
  return {
    id: row.id,
    name: row.name,
    users: row.users,
    connections: row.connections,
    queues: row.queues,
    value: row.valueCents / 100,
    ...toPlanFlags(row),
    isPublic: row.isPublic === 1,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

const bit = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);

/** Parsed plan fields to a row; fields left out stay out, so an update changes only what was sent. */
export function toPlanRow(values: Partial<PlanValues>): Updateable<Plans> {
  const row: Updateable<Plans> = {
    name: values.name,
    users: values.users,
    connections: values.connections,
    queues: values.queues,
    valueCents: values.valueCents,
    isPublic: bit(values.isPublic),
    useCampaigns: bit(values.useCampaigns),
    useSchedules: bit(values.useSchedules),
    useInternalChat: bit(values.useInternalChat),
    useExternalApi: bit(values.useExternalApi),
    useKanban: bit(values.useKanban),
    useOpenAi: bit(values.useOpenAi),
    useIntegrations: bit(values.useIntegrations),
  };
  return Object.fromEntries(Object.entries(row).filter(([, v]) => v !== undefined));
}

export function toNewPlanRow(values: PlanValues): Insertable<Plans> {
  return { ...toPlanRow(values), name: values.name };
}
