import { z } from 'zod';
import { idSchema, timestampSchema } from './common.ts';

// AI prompts (spec/03 §2 "Prompts", §3, §5, §9; issue 16): the assistant a queue or a connection
// answers with. Request bodies and the one wire shape; REST answers it and pokes the company on every
// write (a small list, DESIGN §4). The API key is a secret: stored sealed, never sent back in full
// (`apiKey` in an answer is its mask, `hasApiKey` says one is stored).

/** The spec's default model (gpt-3.5-turbo-1106) is gone at OpenAI: any name is accepted, these are offered. */
export const PROMPT_MODELS = ['gpt-4o-mini', 'gpt-4.1-mini', 'gpt-4o', 'gpt-4.1', 'o4-mini'] as const;

export const PROMPT_DEFAULTS = { model: 'gpt-4o-mini', maxTokens: 100, temperature: 1, maxMessages: 10 } as const;

/** A masked secret as answers show it (`••••` and at most its last four characters). */
export const MASK_PREFIX = '••••';
export const isMaskedSecret = (value: string) => value.startsWith(MASK_PREFIX);

/** The 'set sector' rule of spec/03 §5 and §8: a prompt belongs to a queue. */
export const SET_SECTOR_MESSAGE = 'Set a sector';

/** Forms send numbers as text; an empty field is a missing one. */
const formNumber = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' || v === null ? undefined : typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v), schema);

export const promptNameSchema = z.string({ error: 'Required' }).trim().min(5, 'Too Short!').max(100, 'Too Long!');
export const promptTextSchema = z.string({ error: 'Required' }).trim().min(50, 'Too Short!').max(20_000, 'Too Long!');
export const promptModelSchema = z.string().trim().min(1, 'Required').max(100, 'Too Long!');
export const promptMaxTokensSchema = formNumber(z.number({ error: 'Required' }).int('Must be a whole number').min(1, 'Too Short!').max(16_000, 'Too Long!'));
/** 0 to 1 in steps of 0.1 (spec/03 §5). */
export const promptTemperatureSchema = formNumber(
  z
    .number({ error: 'Required' })
    .min(0, 'Too Short!')
    .max(1, 'Too Long!')
    .refine((v) => Math.abs(v * 10 - Math.round(v * 10)) < 1e-9, 'Use steps of 0.1')
    .transform((v) => Math.round(v * 10) / 10),
);
export const promptMaxMessagesSchema = formNumber(z.number({ error: 'Required' }).int('Must be a whole number').min(1, 'Too Short!').max(100, 'Too Long!'));
export const promptApiKeySchema = z.string({ error: 'Required' }).trim().min(1, 'Required').max(500, 'Too Long!');
const promptQueueIdSchema = z.preprocess((v) => (v === '' || v === null || v === 0 || v === '0' ? undefined : v), idSchema.optional()).refine((v) => v !== undefined, SET_SECTOR_MESSAGE);

export const promptCreateSchema = z.object({
  name: promptNameSchema,
  prompt: promptTextSchema,
  model: promptModelSchema.optional().default(PROMPT_DEFAULTS.model),
  maxTokens: promptMaxTokensSchema.optional().default(PROMPT_DEFAULTS.maxTokens),
  temperature: promptTemperatureSchema.optional().default(PROMPT_DEFAULTS.temperature),
  maxMessages: promptMaxMessagesSchema.optional().default(PROMPT_DEFAULTS.maxMessages),
  apiKey: promptApiKeySchema,
  queueId: promptQueueIdSchema,
  /** Sent by the forms; ignored (the caller's company). */
  companyId: z.unknown().optional(),
});
export type PromptCreateInput = z.infer<typeof promptCreateSchema>;

/** PUT /prompt/{id}: fields left out keep their value; an apiKey left out, empty or masked keeps the stored key. */
export const promptUpdateSchema = z.object({
  name: promptNameSchema.optional(),
  prompt: promptTextSchema.optional(),
  model: promptModelSchema.optional(),
  maxTokens: promptMaxTokensSchema.optional(),
  temperature: promptTemperatureSchema.optional(),
  maxMessages: promptMaxMessagesSchema.optional(),
  apiKey: z.string().trim().max(500, 'Too Long!').optional().nullable(),
  queueId: promptQueueIdSchema.optional(),
  companyId: z.unknown().optional(),
});
export type PromptUpdateInput = z.infer<typeof promptUpdateSchema>;

/** Whether a PUT's apiKey replaces the stored key (a masked or empty one is the form sending back what it showed). */
export function isNewSecret(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.trim() !== '' && !isMaskedSecret(value.trim());
}

export const promptSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  prompt: z.string(),
  model: z.string(),
  maxTokens: z.number().int(),
  temperature: z.number(),
  maxMessages: z.number().int(),
  apiKey: z.string().describe('The stored key masked (••••abcd); never the key itself'),
  hasApiKey: z.boolean(),
  queueId: z.number().int().nullable(),
  queue: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type Prompt = z.infer<typeof promptSchema>;

/** GET /prompt/usage: the AI's requests and tokens per day and model, the latest `days` days. */
export const promptUsageQuerySchema = z.object({ days: z.coerce.number().int().min(1).max(366).default(30) });
export const promptUsageRowSchema = z.object({
  day: z.string().describe('YYYY-MM-DD (UTC)'),
  model: z.string(),
  requests: z.number().int().nonnegative(),
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
});
export const promptUsageSchema = z.object({
  usage: z.array(promptUsageRowSchema),
  totals: promptUsageRowSchema.omit({ day: true, model: true }),
});
export type PromptUsage = z.infer<typeof promptUsageSchema>;
