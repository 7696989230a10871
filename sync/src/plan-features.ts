// Plan flags gate features (spec/01 §3, §6). One table maps a feature to its plan column.

export const PLAN_FEATURES = {
  campaigns: 'useCampaigns',
  schedules: 'useSchedules',
  internalChat: 'useInternalChat',
  externalApi: 'useExternalApi',
  kanban: 'useKanban',
  openAi: 'useOpenAi',
  integrations: 'useIntegrations',
} as const;

export type PlanFeature = keyof typeof PLAN_FEATURES;
export type PlanFlags = { [K in (typeof PLAN_FEATURES)[PlanFeature]]: boolean };

export function planAllows(plan: Partial<PlanFlags> | null | undefined, feature: PlanFeature): boolean {
  return plan?.[PLAN_FEATURES[feature]] === true;
}

/** Campaign pages show when the plan has campaigns or the company turned on the local campaign flag (cshow). */
export function campaignsVisible(plan: Partial<PlanFlags> | null | undefined, campaignsEnabledSetting: boolean): boolean {
  return planAllows(plan, 'campaigns') || campaignsEnabledSetting;
}
