import { z } from 'zod';
import { idSchema, listQuerySchema, timestampSchema } from './common.ts';
import { isReservedVariable, isTimeZone } from './template.ts';

// Campaigns and campaign settings (spec/03 §3-§5, §7, §9; DESIGN §13). `campaignSchema` is the one
// wire shape of a campaign (REST answers; campaigns stay on paginated REST, DESIGN §4, so there is
// no sync view). The status machine and the editability rule are pure functions here so the
// server, the web and the CLI read them alike.

export const CAMPAIGN_STATUSES = ['INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO', 'CANCELADA', 'FINALIZADA'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** Up to 5 message variants (spec/03 §9). */
export const CAMPAIGN_VARIANTS = 5;
/** A programmed campaign stays editable while its start is more than this far ahead (spec/03 §4). */
export const CAMPAIGN_EDIT_LEAD_MS = 60 * 60_000;
/** Campaign media: the largest upload cap of spec/03 §5 (video 20 MB). */
export const CAMPAIGN_MEDIA_MAX_BYTES = 20 * 1024 * 1024;

/** Replies that opt a contact out of campaigns (DESIGN §13), compared trimmed and case-folded. */
export const CAMPAIGN_OPT_OUT_WORDS = ['STOP', 'SAIR', 'PARAR', 'CANCELAR'] as const;

/**
 * Confirmation campaigns (DESIGN §13): the confirmation message goes first, the real one only after
 * an explicit yes. A reply is compared without accents, case, spaces and trailing punctuation;
 * anything not in these lists is no answer (recorded, the recipient keeps waiting).
 */
export const CAMPAIGN_YES_WORDS = ['SIM', 'S', 'YES', 'Y', 'SI', 'OK', 'CONFIRMO', 'CONFIRMAR', 'CONFIRMADO', 'QUERO', '1'] as const;
export const CAMPAIGN_NO_WORDS = ['NAO', 'N', 'NO', 'NAO QUERO', '2', ...CAMPAIGN_OPT_OUT_WORDS] as const;

export function parseConfirmationReply(body: string): 'yes' | 'no' | 'other' {
  const word = body
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[\s.!,;:?]+$/g, '')
    .replace(/^[\s.!,;:?]+/g, '')
    .replace(/\s+/g, ' ');
  if ((CAMPAIGN_YES_WORDS as readonly string[]).includes(word)) return 'yes';
  if ((CAMPAIGN_NO_WORDS as readonly string[]).includes(word)) return 'no';
  return 'other';
}

/** Whether a campaign in `status`, scheduled at `scheduledAt`, may be edited at `now` (spec/03 §4). */
export function isCampaignEditable(status: string, scheduledAt: string | null, now: Date): boolean {
  if (status === 'INATIVA') return true;
  if (status === 'PROGRAMADA') return scheduledAt !== null && Date.parse(scheduledAt) - now.getTime() > CAMPAIGN_EDIT_LEAD_MS;
  return false;
}

/** A cancelled campaign may still be saved, its message fields only (spec/03 §4). */
export const CAMPAIGN_MESSAGE_FIELDS = [
  'message1', 'message2', 'message3', 'message4', 'message5',
  'confirmationMessage1', 'confirmationMessage2', 'confirmationMessage3', 'confirmationMessage4', 'confirmationMessage5',
] as const;

const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const scheduledAtSchema = z
  .string()
  .trim()
  .refine((v) => ISO_WITH_ZONE.test(v) && Number.isFinite(Date.parse(v)), { error: 'Invalid date-time: use ISO-8601 with a time zone' })
  .transform((v) => new Date(v).toISOString());

const messageSchema = z.string().max(4096, 'Too Long!');
/** A select's "none" arrives as null, '' or the dialog's 'Nenhuma' (tag list default). */
const optionalRef = z.preprocess((v) => (v === '' || v === 'Nenhuma' || v === 0 || v === '0' ? null : v), idSchema.nullable());

const campaignFields = {
  name: z.string({ error: 'Required' }).trim().min(2, 'Too Short!').max(50, 'Too Long!'),
  message1: messageSchema.optional(),
  message2: messageSchema.optional(),
  message3: messageSchema.optional(),
  message4: messageSchema.optional(),
  message5: messageSchema.optional(),
  confirmationMessage1: messageSchema.optional(),
  confirmationMessage2: messageSchema.optional(),
  confirmationMessage3: messageSchema.optional(),
  confirmationMessage4: messageSchema.optional(),
  confirmationMessage5: messageSchema.optional(),
  confirmation: z.union([z.boolean(), z.enum(['true', 'false'])]).transform((v) => v === true || v === 'true').optional(),
  whatsappId: optionalRef.optional(),
  contactListId: optionalRef.optional(),
  /** The dialog's tagListId; stored as tagId. */
  tagListId: optionalRef.optional(),
  tagId: optionalRef.optional(),
  fileListId: optionalRef.optional(),
  scheduledAt: z.preprocess((v) => (v === '' ? null : v), scheduledAtSchema.nullable()).optional(),
};

export const campaignCreateSchema = z.object(campaignFields);
export type CampaignCreateInput = z.infer<typeof campaignCreateSchema>;
export const campaignUpdateSchema = z.object({ ...campaignFields, name: campaignFields.name.optional() });
export type CampaignUpdateInput = z.infer<typeof campaignUpdateSchema>;

export const campaignListQuerySchema = listQuerySchema.extend({ companyId: idSchema.optional() });

export const SHIPPING_STATES = ['pending', 'confirmation', 'confirmed', 'declined', 'queued', 'sent', 'delivered', 'read', 'failed', 'skipped'] as const;
export type ShippingState = (typeof SHIPPING_STATES)[number];

export const campaignShippingSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  name: z.string(),
  state: z.enum(SHIPPING_STATES).describe('pending → queued → sent → delivered → read; with confirmation: pending → confirmation (asked) → confirmed (yes) or declined (no) → queued …; failed or skipped with a reason'),
  reason: z.string().nullable().describe('Why it failed or was skipped: invalid (not on WhatsApp), opted-out, or a catalogue code; the last unclear reply while awaiting a confirmation'),
  variant: z.number().int().nullable().describe('Which message (1-5) it got'),
  message: z.string().describe('The text as sent, variables filled'),
  deliveredAt: z.string().nullable().describe('When the network accepted it'),
});
export type CampaignShipping = z.infer<typeof campaignShippingSchema>;

export const campaignTotalsSchema = z.object({
  recipients: z.number().int(),
  valid: z.number().int().describe('Recipients not skipped as invalid numbers'),
  pending: z.number().int(),
  queued: z.number().int(),
  sent: z.number().int().describe('Accepted by the network (delivered and read included)'),
  delivered: z.number().int().describe('Delivered to the phone (read included)'),
  read: z.number().int(),
  failed: z.number().int(),
  awaitingConfirmation: z.number().int().describe('Asked, no yes or no yet'),
  confirmed: z.number().int().describe('Answered yes (their real message is then pending, queued or sent)'),
  declined: z.number().int(),
  skippedInvalid: z.number().int(),
  skippedOptOut: z.number().int(),
  progress: z.number().describe('Delivered over valid contacts, 0..1 (spec/03 §2)'),
});
export type CampaignTotals = z.infer<typeof campaignTotalsSchema>;

export const campaignSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  message1: z.string(),
  message2: z.string(),
  message3: z.string(),
  message4: z.string(),
  message5: z.string(),
  confirmationMessage1: z.string(),
  confirmationMessage2: z.string(),
  confirmationMessage3: z.string(),
  confirmationMessage4: z.string(),
  confirmationMessage5: z.string(),
  confirmation: z.boolean(),
  scheduledAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  whatsappId: z.number().int().nullable(),
  whatsapp: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  contactListId: z.number().int().nullable(),
  contactList: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  tagId: z.number().int().nullable(),
  fileListId: z.number().int().nullable(),
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  companyId: z.number().int(),
  editable: z.boolean().describe('Whether the dialog may change it now (spec/03 §4)'),
  deleting: z.boolean().describe('Its delete began and did not finish (the server stopped midway): it can only be deleted again, which finishes it'),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  version: z.number().int(),
});
export type Campaign = z.infer<typeof campaignSchema>;
export type CampaignPage = { records: Campaign[]; count: number; hasMore: boolean };
export type CampaignReport = { campaign: Campaign; totals: CampaignTotals; shipping: CampaignShipping[]; hasMore: boolean };

// ── Campaign settings ──────────────────────────────────────────────────────────────────────
// Seconds everywhere. The first three are spec/03 §9's; the rest are ours (DESIGN §13), with safe
// defaults: a ±5 s jitter so no two gaps are equal, at most 100 sends an hour and 800 a day per
// connection, no sending window (any hour) unless one is set.

export const MESSAGE_INTERVAL_OPTIONS = [0, 5, 10, 15, 20] as const;
export const LONGER_INTERVAL_OPTIONS = [0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120] as const;

const seconds = z.coerce.number().int().min(0).max(86_400);
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM');

export const campaignVariableSchema = z.object({
  key: z
    .string()
    .trim()
    .min(1)
    .max(50)
    .regex(/^[A-Za-z][\w-]*$/, 'Letters, digits, - and _')
    .refine((key) => !isReservedVariable(key), 'A built-in variable has this name (nome, primeiro-nome, email, numero, saudacao…): choose another'),
  value: z.string().max(1000),
});

export const campaignSettingsSchema = z.object({
  messageInterval: seconds.describe('Seconds between two sends on a connection'),
  longerIntervalAfter: z.coerce.number().int().min(0).max(100_000).describe('After this many sends, a longer pause (0: never)'),
  greaterInterval: seconds.describe('Seconds of the longer pause'),
  messageJitter: seconds.describe('Each gap is messageInterval ± up to this many seconds (never below 0)'),
  hourlyLimit: z.coerce.number().int().min(0).max(100_000).describe('Sends per connection per hour (0: no cap)'),
  dailyLimit: z.coerce.number().int().min(0).max(1_000_000).describe('Sends per connection per day (0: no cap)'),
  sendWindowStart: hhmm.nullable().describe('Sending window start, HH:MM in timeZone (null: any hour)'),
  sendWindowEnd: hhmm.nullable().describe('Sending window end, HH:MM in timeZone'),
  // A zone the runtime does not know would stop every pass of the company's campaigns (pacing.ts).
  timeZone: z.string().max(64).refine(isTimeZone, 'Not a known time zone: use an IANA name such as America/Sao_Paulo').nullable().describe('Zone of the window and of {saudacao} (null: the server zone)'),
  doNotContactTagId: idSchema.nullable().describe('Contacts whose tickets carry this tag are skipped'),
  ticketOnReplyOnly: z.boolean().describe('On (default): a campaign message goes in a closed ticket, and the contact\'s reply opens a pending one; off: it opens a pending ticket for the agents at once'),
  variables: z.array(campaignVariableSchema).max(100),
  confirmationUnclearReply: z.string().max(1000).describe('Sent once to a recipient whose answer to a confirmation is neither a yes nor a no ("" sends nothing); a second unclear answer goes to the agents'),
  confirmationTimeoutHours: z.coerce.number().int().min(0).max(720).describe('Hours a confirmation waits for its answer before the recipient counts as declined (reason no-answer); 0: waits forever'),
});
export type CampaignSettings = z.infer<typeof campaignSettingsSchema>;

export const CAMPAIGN_SETTINGS_DEFAULTS: CampaignSettings = {
  messageInterval: 20,
  longerIntervalAfter: 20,
  greaterInterval: 60,
  messageJitter: 5,
  hourlyLimit: 100,
  dailyLimit: 800,
  sendWindowStart: null,
  sendWindowEnd: null,
  timeZone: null,
  doNotContactTagId: null,
  ticketOnReplyOnly: true,
  variables: [],
  confirmationUnclearReply: 'Não entendi. Responda SIM para receber a mensagem ou NÃO para não receber.',
  confirmationTimeoutHours: 48,
};

/** POST /campaign-settings `{ settings }`: any subset; variables replace the list, deduplicated by key (spec/03 §5). */
export const campaignSettingsInputSchema = z.object({ settings: campaignSettingsSchema.partial() });

/** The first of each key wins: a variable whose key already exists is not added again (spec/03 §5). */
export function dedupeVariables(vars: { key: string; value: string }[]): { key: string; value: string }[] {
  const seen = new Set<string>();
  return vars.filter((v) => (seen.has(v.key) ? false : (seen.add(v.key), true)));
}
