import { z } from 'zod';
import { idSchema, listQuerySchema, timestampSchema } from './common.ts';
import { isMaskedSecret } from './prompt.ts';

// Queue integrations (spec/03 §2 "Queue integrations", §3, §5, §9; issue 16): a chatbot a queue or a
// connection hands its conversations to. Request bodies, the per-type rules (one function shared by
// the server, which runs it on the merged row of a PUT, and the web form) and the one wire shape.
// Secrets (Dialogflow's service-account JSON, the signing secret of n8n and webhook calls) are
// stored sealed and answered masked; a signing secret the server generates is answered in full once,
// by the write that made it.

export const INTEGRATION_TYPES = ['dialogflow', 'n8n', 'webhook', 'typebot', 'flowbuilder'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

export const DIALOGFLOW_LANGUAGES = ['pt-BR', 'en', 'es'] as const;

/** spec/03 §9. */
export const TYPEBOT_DEFAULTS = { typebotDelayMessage: 1000, typebotExpires: 1 } as const;

/** Types whose calls are signed (an HMAC of the body with the integration's signing secret). */
export const SIGNED_INTEGRATION_TYPES: readonly IntegrationType[] = ['n8n', 'webhook'];
/** Types whose project name is the integration's name (spec/03 §5). */
export const NAMED_PROJECT_TYPES: readonly IntegrationType[] = ['n8n', 'webhook', 'typebot', 'flowbuilder'];
/** Types that call a URL (`urlN8N`: the n8n or webhook endpoint, the Typebot server). */
export const URL_INTEGRATION_TYPES: readonly IntegrationType[] = ['n8n', 'webhook', 'typebot'];

export const integrationNameSchema = z.string({ error: 'Required' }).trim().min(2, 'Too Short!').max(50, 'Too Long!');

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
/** PUT: left out keeps the value, empty or null clears it. */
const clearable = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? null : v), schema.nullable().optional());
const optionalText = (max: number) => z.preprocess(blankToUndefined, z.string().trim().max(max, 'Too Long!').optional());
const formInt = (min: number, max: number) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z.number().int('Must be a whole number').min(min, 'Too Short!').max(max, 'Too Long!').optional(),
  );
const urlSchema = z.preprocess(blankToUndefined, z.string().trim().max(2000, 'Too Long!').pipe(z.url({ protocol: /^https?$/, error: 'Give an http(s) link' })).optional());

const integrationFields = {
  type: z.enum(INTEGRATION_TYPES, { error: 'Required' }),
  name: integrationNameSchema,
  /** Dialogflow's project id (defaults to the credentials' project_id); for the other types the name. */
  projectName: optionalText(200),
  /** Dialogflow's service-account JSON, pasted; answered masked. */
  jsonContent: z.preprocess(blankToUndefined, z.string().max(20_000, 'Too Long!').optional()),
  language: z.preprocess(blankToUndefined, z.enum(DIALOGFLOW_LANGUAGES).optional()),
  urlN8N: urlSchema,
  typebotSlug: optionalText(200),
  typebotExpires: formInt(0, 1440),
  typebotKeywordFinish: optionalText(100),
  typebotKeywordRestart: optionalText(100),
  typebotUnknownMessage: optionalText(2000),
  typebotRestartMessage: optionalText(2000),
  typebotDelayMessage: formInt(0, 60_000),
  /** flowbuilder: the company's flow it starts. */
  flowId: z.preprocess(blankToUndefined, idSchema.optional()),
  /** n8n and webhook: the HMAC key of the calls; empty on create means "generate one". */
  signingSecret: z.preprocess(blankToUndefined, z.string().trim().min(16, 'Too Short!').max(200, 'Too Long!').optional()),
  companyId: z.unknown().optional(),
};

/** What the type rules read: the row as it will be after the write (`has*` for secrets kept from before). */
export type IntegrationRuleValues = {
  type: IntegrationType;
  urlN8N?: string | null | undefined;
  typebotSlug?: string | null | undefined;
  language?: string | null | undefined;
  flowId?: number | null | undefined;
  jsonContent?: string | null | undefined;
  hasJsonContent?: boolean;
};

/** The Dialogflow credential fields a service-account JSON must carry. */
const DIALOGFLOW_KEYS = ['client_email', 'private_key', 'project_id'] as const;

/** The service-account JSON's project id, or an error message. */
export function readDialogflowCredentials(json: string): { projectId: string; clientEmail: string } | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return { error: 'Paste the service account JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null) return { error: 'Paste the service account JSON' };
  const record = parsed as Record<string, unknown>;
  const missing = DIALOGFLOW_KEYS.filter((k) => typeof record[k] !== 'string' || record[k] === '');
  if (missing.length > 0) return { error: `The JSON lacks ${missing.join(', ')}` };
  return { projectId: record.project_id as string, clientEmail: record.client_email as string };
}

/** The per-type rules of spec/03 §5 and issue 16, as field issues. */
export function integrationRuleIssues(v: IntegrationRuleValues): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  const blank = (s: string | null | undefined) => !s || s.trim() === '';
  if (URL_INTEGRATION_TYPES.includes(v.type) && blank(v.urlN8N)) issues.push({ path: 'urlN8N', message: 'Required' });
  if (v.type === 'typebot' && blank(v.typebotSlug)) issues.push({ path: 'typebotSlug', message: 'Required' });
  if (v.type === 'flowbuilder' && !v.flowId) issues.push({ path: 'flowId', message: 'Required' });
  if (v.type === 'dialogflow') {
    if (!v.language) issues.push({ path: 'language', message: 'Required' });
    if (v.jsonContent) {
      const read = readDialogflowCredentials(v.jsonContent);
      if ('error' in read) issues.push({ path: 'jsonContent', message: read.error });
    } else if (!v.hasJsonContent) issues.push({ path: 'jsonContent', message: 'Required' });
  }
  return issues;
}

const addRuleIssues = (values: IntegrationRuleValues, ctx: z.RefinementCtx) => {
  for (const issue of integrationRuleIssues(values)) ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
};

/** POST /queueIntegration. */
export const queueIntegrationCreateSchema = z.object(integrationFields).superRefine((v, ctx) => addRuleIssues(v, ctx));
export type QueueIntegrationCreateInput = z.infer<typeof queueIntegrationCreateSchema>;

/**
 * PUT /queueIntegration/{id}: fields left out keep their value, empty ones are cleared; the type rules
 * run on the merged row. A secret left out, empty or masked keeps the stored one.
 */
export const queueIntegrationUpdateSchema = z.object({
  type: integrationFields.type.optional(),
  name: integrationNameSchema.optional(),
  projectName: clearable(z.string().trim().max(200, 'Too Long!')),
  /** Empty, null or masked keeps the stored credentials. */
  jsonContent: z.string().max(20_000, 'Too Long!').optional().nullable(),
  language: clearable(z.enum(DIALOGFLOW_LANGUAGES)),
  urlN8N: clearable(z.string().trim().max(2000, 'Too Long!').pipe(z.url({ protocol: /^https?$/, error: 'Give an http(s) link' }))),
  typebotSlug: clearable(z.string().trim().max(200, 'Too Long!')),
  typebotExpires: formInt(0, 1440),
  typebotKeywordFinish: clearable(z.string().trim().max(100, 'Too Long!')),
  typebotKeywordRestart: clearable(z.string().trim().max(100, 'Too Long!')),
  typebotUnknownMessage: clearable(z.string().trim().max(2000, 'Too Long!')),
  typebotRestartMessage: clearable(z.string().trim().max(2000, 'Too Long!')),
  typebotDelayMessage: formInt(0, 60_000),
  flowId: clearable(idSchema),
  /** Empty, null or masked keeps the stored secret; a new one has at least 16 characters. */
  signingSecret: z
    .string()
    .trim()
    .max(200, 'Too Long!')
    .refine((v) => v === '' || isMaskedSecret(v) || v.length >= 16, 'Too Short!')
    .optional()
    .nullable(),
  companyId: z.unknown().optional(),
});
export type QueueIntegrationUpdateInput = z.infer<typeof queueIntegrationUpdateSchema>;

/** GET /queueIntegration: a page of 20 by name; without pageNumber (the pickers) every integration. */
export const queueIntegrationQuerySchema = listQuerySchema.extend({
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional(),
  companyId: z.unknown().optional(),
});
export type QueueIntegrationQuery = z.infer<typeof queueIntegrationQuerySchema>;

export const queueIntegrationSchema = z.object({
  id: z.number().int(),
  type: z.enum(INTEGRATION_TYPES),
  name: z.string(),
  projectName: z.string().nullable(),
  jsonContent: z.string().describe('Dialogflow credentials masked (••••…); empty when none is stored'),
  hasJsonContent: z.boolean(),
  language: z.string().nullable(),
  urlN8N: z.string().nullable(),
  typebotSlug: z.string().nullable(),
  typebotExpires: z.number().int().describe('Minutes of silence after which a Typebot session restarts'),
  typebotKeywordFinish: z.string().nullable(),
  typebotKeywordRestart: z.string().nullable(),
  typebotUnknownMessage: z.string().nullable(),
  typebotRestartMessage: z.string().nullable(),
  typebotDelayMessage: z.number().int().describe('Milliseconds between Typebot messages'),
  flowId: z.number().int().nullable(),
  signingSecret: z.string().describe('n8n/webhook HMAC key: in full only in the answer of the write that generated it, masked otherwise'),
  hasSigningSecret: z.boolean(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type QueueIntegration = z.infer<typeof queueIntegrationSchema>;
