import { z } from 'zod';
import { PLAN_FEATURES, type PlanFeature, type PlanFlags } from '../plan-features.ts';
import { timestampSchema } from './common.ts';

// Plans (spec/01 §3): the bodies of POST /plans and PUT /plans/{id}, and the plan as the API shows it.
// The plan form names its switches `kanban`, `campaigns`…; the API and the database say `useKanban`,
// `useCampaigns`…. Both spellings are accepted here, once, so every caller sees the use* names.

const planFlagsSchema = z.object(
  Object.fromEntries(Object.values(PLAN_FEATURES).map((use) => [use, z.boolean()])) as Record<(typeof PLAN_FEATURES)[PlanFeature], z.ZodBoolean>,
);

/**
 * The plan as every endpoint answers it, and as it rides inside the synced company (company/<id>):
 * its limits, `value` in reais (2 decimals, stored as cents) and the use* flags that gate features.
 */
export const planSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  users: z.number().int().describe('Most users the company may have'),
  connections: z.number().int().describe('Most WhatsApp connections'),
  queues: z.number().int().describe('Most queues'),
  value: z.number().describe('Price in reais (BRL), 2 decimals; stored as integer cents'),
  ...planFlagsSchema.shape,
  isPublic: z.boolean().describe('Offered at the public sign-up'),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
});
export type Plan = z.infer<typeof planSchema>;

/** A switch from a JSON body or a form select: true/false, "true"/"false", "enabled"/"disabled", 1/0. */
export const formSwitchSchema = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['true', 'false', 'enabled', 'disabled', '1', '0'])])
  .transform((v) => v === true || v === 1 || v === 'true' || v === 'enabled' || v === '1');

// Forms send numbers as strings; anything that is not a plain non-negative number is refused.
const limitSchema = z
  .union([z.number(), z.string().trim().regex(/^\d+$/).transform(Number)], {
    error: (iss) => (iss.input === undefined ? 'Required' : 'Must be a whole number'),
  })
  .pipe(z.number().int('Must be a whole number').min(0, 'Must be 0 or more').max(1_000_000));

/** Reais, as a number or a "49,90"/"49.90" string, to integer cents. */
export const moneySchema = z
  .union([z.number(), z.string().trim().regex(/^\d+([.,]\d{1,2})?$/).transform((s) => Number(s.replace(',', '.')))], {
    error: (iss) => (iss.input === undefined ? 'Required' : 'Invalid amount'),
  })
  .pipe(z.number().min(0, 'Must be 0 or more').max(10_000_000))
  .transform((reais) => Math.round(reais * 100));

const FEATURES = Object.keys(PLAN_FEATURES) as PlanFeature[];
type UseKey = (typeof PLAN_FEATURES)[PlanFeature];

const switches = Object.fromEntries(
  FEATURES.flatMap((f) => [
    [f, formSwitchSchema.optional()],
    [PLAN_FEATURES[f], formSwitchSchema.optional()],
  ]),
) as Record<PlanFeature | UseKey, z.ZodOptional<typeof formSwitchSchema>>;

const planBodySchema = z.object({
  name: z.string().trim().min(1, 'Required').max(100, 'Too Long!'),
  users: limitSchema,
  connections: limitSchema,
  queues: limitSchema,
  value: moneySchema,
  isPublic: formSwitchSchema.optional(),
  ...switches,
});

export type PlanValues = PlanFlags & {
  name: string;
  users: number;
  connections: number;
  queues: number;
  valueCents: number;
  isPublic: boolean;
};

type PlanBody = Partial<z.output<typeof planBodySchema>>;

/**
 * The use* flags named in a body. A flag named both ways takes the form's spelling: a client that
 * spreads the stored plan (use*) under its form values (kanban…) means the form.
 */
function pickFlags(body: PlanBody): Partial<PlanFlags> {
  const flags: Partial<PlanFlags> = {};
  for (const f of FEATURES) {
    const use = PLAN_FEATURES[f];
    const value = body[f] ?? body[use];
    if (value !== undefined) flags[use] = value;
  }
  return flags;
}

function pickFields(body: PlanBody) {
  const out: Partial<PlanValues> = {};
  if (body.name !== undefined) out.name = body.name;
  if (body.users !== undefined) out.users = body.users;
  if (body.connections !== undefined) out.connections = body.connections;
  if (body.queues !== undefined) out.queues = body.queues;
  if (body.value !== undefined) out.valueCents = body.value;
  if (body.isPublic !== undefined) out.isPublic = body.isPublic;
  return { ...out, ...pickFlags(body) };
}

const ALL_ON = Object.fromEntries(FEATURES.map((f) => [PLAN_FEATURES[f], true])) as PlanFlags;

/** POST /plans: every limit and the value are required; switches default to on (the plan form's default). */
export const planCreateSchema = planBodySchema.transform((body): PlanValues => ({
  isPublic: true,
  ...ALL_ON,
  ...(pickFields(body) as Omit<PlanValues, 'isPublic' | UseKey>),
}));
export type PlanCreateInput = z.input<typeof planCreateSchema>;

/** PUT /plans/{id}: only the fields sent change. */
export const planUpdateSchema = planBodySchema.partial().transform((body): Partial<PlanValues> => pickFields(body));
export type PlanUpdateInput = z.input<typeof planUpdateSchema>;
