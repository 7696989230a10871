import { z } from 'zod';

// Company settings (spec/01 §3, §5): each key has its allowed values and a default for new companies.
export const SETTING_VALUES = {
  userRating: ['enabled', 'disabled'],
  scheduleType: ['disabled', 'queue', 'company'],
  call: ['enabled', 'disabled'],
  CheckMsgIsGroup: ['enabled', 'disabled'],
  sendGreetingAccepted: ['enabled', 'disabled'],
  sendMsgTransfTicket: ['enabled', 'disabled'],
  sendGreetingMessageOneQueues: ['enabled', 'disabled'],
  chatBotType: ['text'],
  asaas: ['enabled', 'disabled'],
  campaignsEnabled: ['true', 'false'],
} as const;

export type SettingKey = keyof typeof SETTING_VALUES;
export const SETTING_KEYS = Object.keys(SETTING_VALUES) as SettingKey[];

export const DEFAULT_SETTINGS: Record<SettingKey, string> = {
  userRating: 'disabled',
  scheduleType: 'disabled',
  call: 'enabled',
  CheckMsgIsGroup: 'enabled',
  sendGreetingAccepted: 'disabled',
  sendMsgTransfTicket: 'disabled',
  sendGreetingMessageOneQueues: 'enabled',
  chatBotType: 'text',
  asaas: 'disabled',
  campaignsEnabled: 'true',
};

export const settingKeySchema = z.enum(SETTING_KEYS as [SettingKey, ...SettingKey[]]);

/** PUT /settings/{key} body: the value must be one the key allows. */
export function settingValueSchema(key: SettingKey) {
  return z.object({ key: z.literal(key).optional(), value: z.enum(SETTING_VALUES[key] as unknown as [string, ...string[]]) });
}

/** PUT /settings/{key}'s body for any key, for the API's document (the route parses with its key's own schema). */
export const settingAnyValueSchema = z.union(SETTING_KEYS.map((key) => settingValueSchema(key)) as unknown as [z.ZodType, ...z.ZodType[]]);

/**
 * One company setting as GET /settings lists it and as setting/<key> syncs it: a known key the
 * company has no row for still answers, with its default (DEFAULT_SETTINGS).
 */
export const settingSchema = z.object({
  key: z.string().describe('A key of SETTING_VALUES; a key stored before it left the list still shows'),
  value: z.string(),
});
export type Setting = z.infer<typeof settingSchema>;
