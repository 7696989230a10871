import { z } from 'zod';
import { idSchema, queryBool, timestampSchema } from './common.ts';
import { businessDaySchema, queueSchema, schedulesSchema } from './queue.ts';

// Connections (spec/03 §3-§5, §7, §9) and the simulator's HTTP controls (DESIGN §5).
// `connectionSchema` is the one wire shape of a connection: GET /whatsapp answers it and the sync
// view puts it at `connection/<id>`, with the same two rules on both: the token only for admins,
// the QR code and retries only when the session details are asked for (always, in the view).

export const CONNECTION_STATUSES = ['qrcode', 'PAIRING', 'OPENING', 'CONNECTED', 'DISCONNECTED', 'TIMEOUT'] as const;
export type ConnectionStatusValue = (typeof CONNECTION_STATUSES)[number];

/** `beta` (the spec's default) is real WhatsApp through Baileys; `simulator` is the built-in fake network. */
export const CONNECTION_PROVIDERS = ['beta', 'simulator'] as const;
export type ConnectionProvider = (typeof CONNECTION_PROVIDERS)[number];

export const CONNECTION_DEFAULTS = { maxUseBotQueues: 3, expiresTicket: 0, timeUseBotQueues: 0, timeToTransfer: 0, provider: 'beta' } as const;

const optionalText = (max: number) => z.preprocess((v) => (v === '' ? null : v), z.string().max(max).nullable().optional());
const optionalId = z.preprocess((v) => (v === '' ? null : v), idSchema.nullable().optional());
const minutes = z.coerce.number().int().min(0).max(1_000_000);

const connectionFields = {
  name: z.string().trim().min(2, 'Too Short!').max(50, 'Too Long!'),
  /** Accepted so whole-form saves pass, but the session manager alone sets the status. */
  status: z.enum(CONNECTION_STATUSES).optional(),
  isDefault: z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => v === true || v === 1).optional(),
  greetingMessage: optionalText(5000),
  complationMessage: optionalText(5000),
  outOfHoursMessage: optionalText(5000),
  ratingMessage: optionalText(5000),
  expiresInactiveMessage: optionalText(5000),
  /** The bearer token of the external messages API; generated on create when absent. */
  token: z.preprocess((v) => (v === '' ? undefined : v), z.string().trim().min(8, 'Too Short!').max(200, 'Too Long!').optional()),
  provider: z.enum(CONNECTION_PROVIDERS).optional(),
  expiresTicket: minutes.optional(),
  timeUseBotQueues: minutes.optional(),
  maxUseBotQueues: z.coerce.number().int().min(0).max(100).optional(),
  timeToTransfer: minutes.optional(),
  transferQueueId: optionalId,
  promptId: optionalId,
  integrationId: optionalId,
  queueIds: z.array(idSchema).max(500).transform((ids) => [...new Set(ids)]).optional(),
  schedules: schedulesSchema.optional(),
};

/** POST /whatsapp; `companyId` is honoured for the super-admin only. */
export const whatsappCreateSchema = z.object({ ...connectionFields, companyId: idSchema.optional() });
export type WhatsappCreateInput = z.infer<typeof whatsappCreateSchema>;

/** PUT /whatsapp/{id}: only the fields sent change. */
export const whatsappUpdateSchema = z.object(connectionFields).partial().extend({ companyId: idSchema.optional() });
export type WhatsappUpdateInput = z.infer<typeof whatsappUpdateSchema>;

/** GET /whatsapp: `session=0` leaves out the QR code and retries (the side menu's light list). */
export const whatsappListQuerySchema = z.object({
  companyId: idSchema.optional(),
  session: queryBool.optional(),
});

/** A queue of a connection, as the connection shows it (the customer menu, in menu order). */
export const connectionQueueSchema = queueSchema.pick({ id: true, name: true, color: true, greetingMessage: true, orderQueue: true });
export type ConnectionQueue = z.infer<typeof connectionQueueSchema>;

/** A connection as GET /whatsapp answers it and as the client view holds it (`connection/<id>`). */
export const connectionSchema = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  status: z.enum(CONNECTION_STATUSES).describe('qrcode: waiting for the QR code to be scanned; CONNECTED: working'),
  isDefault: z.boolean().describe('The connection new tickets and messages use when none is named; one per company'),
  deleting: z.boolean().describe('Its delete began and did not finish (the server stopped midway): its session stays down, and it can only be deleted again, which finishes it'),
  qrcode: z.string().optional().describe('The QR code to scan while status is qrcode (empty otherwise); left out with session=0'),
  retries: z.number().int().optional().describe('QR codes shown so far in this pairing attempt; left out with session=0'),
  number: z.string().nullable().describe('The WhatsApp number once paired'),
  provider: z.enum(CONNECTION_PROVIDERS),
  token: z.string().nullable().optional().describe('Bearer token of the external messages API; present for admins only'),
  greetingMessage: z.string().nullable(),
  complationMessage: z.string().nullable().describe('Sent when a ticket is resolved'),
  outOfHoursMessage: z.string().nullable(),
  ratingMessage: z.string().nullable(),
  expiresInactiveMessage: z.string().nullable().describe('Sent when an open ticket is closed for inactivity (expiresTicket)'),
  expiresTicket: z.number().int().describe('Minutes since the last message after which an open ticket is closed; 0: never'),
  timeUseBotQueues: z.number().int().describe('Minutes the bot stays silent after sending a menu instead of repeating it; 0: no wait'),
  maxUseBotQueues: z.number().int().describe('How many menus the bot sends a ticket before it stops; 0: no limit'),
  timeToTransfer: z.number().int().describe('Minutes after which a pending ticket moves to transferQueueId; 0: never'),
  transferQueueId: z.number().int().nullable(),
  promptId: z.number().int().nullable(),
  integrationId: z.number().int().nullable(),
  schedules: z.array(businessDaySchema).describe('Business hours, at most one entry per weekday'),
  queues: z.array(connectionQueueSchema).describe('Its queues, in menu order'),
  queueIds: z.array(z.number().int()).describe('The ids of `queues`, as POST and PUT /whatsapp take them'),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  version: z.number().int().describe('Row version, bumped on every change'),
});
export type Connection = z.infer<typeof connectionSchema>;

// ── Simulator controls (enabled with SIMULATOR=1) ──────────────────────────────────────────────

export const SIMULATED_MEDIA_TYPES = ['text', 'image', 'audio', 'video', 'document', 'location', 'vcard', 'call_log'] as const;
export type SimulatedMediaType = (typeof SIMULATED_MEDIA_TYPES)[number];

/** A phone number as digits (a leading + and separators are dropped). */
export const phoneDigitsSchema = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).replace(/[\s()+.-]/g, ''))
  .pipe(z.string().regex(/^\d{6,20}$/, 'Use 6 to 20 digits'));

export const simulatorScanSchema = z.object({ number: phoneDigitsSchema.optional() });

export const simulatorMessageSchema = z.object({
  connectionId: idSchema,
  from: phoneDigitsSchema,
  name: z.string().trim().max(100).optional(),
  body: z.string().max(65_536).optional(),
  mediaType: z.enum(SIMULATED_MEDIA_TYPES).optional(),
  fileName: z.string().trim().min(1).max(200).optional(),
  quotedId: z.string().trim().min(1).max(128).optional(),
  /** Redelivery: the same id again is the same WhatsApp message. */
  id: z.string().trim().min(1).max(128).optional(),
});
export type SimulatorMessageInput = z.infer<typeof simulatorMessageSchema>;

/** Most messages one burst may carry. */
export const SIMULATOR_BURST_MAX = 500;

/**
 * A burst of contacts' messages arriving on one connection at once (as WhatsApp hands a busy
 * socket several messages together): each one as `POST /simulator/messages` takes it.
 */
export const simulatorBurstSchema = z.object({
  messages: z.array(simulatorMessageSchema.omit({ connectionId: true })).min(1).max(SIMULATOR_BURST_MAX),
});

export const simulatorOutboxQuerySchema = z.object({ connectionId: idSchema, to: phoneDigitsSchema.optional() });

export const simulatorAckSchema = z.object({
  connectionId: idSchema,
  messageId: z.string().trim().min(1).max(128),
  ack: z.coerce.number().int().min(0).max(5),
});

/** A simulated contact edits the text of a message it sent (WhatsApp: a MESSAGE_EDIT protocol message). */
export const simulatorEditSchema = z.object({
  connectionId: idSchema,
  messageId: z.string().trim().min(1).max(128),
  body: z.string().trim().min(1).max(65_536),
});

/** A simulated contact deletes a message it sent for everyone (WhatsApp: a REVOKE protocol message). */
export const simulatorRevokeSchema = z.object({ connectionId: idSchema, messageId: z.string().trim().min(1).max(128) });

export const DROP_CAUSES = ['network', 'loggedOut', 'replaced'] as const;
export type DropCause = (typeof DROP_CAUSES)[number];
/** Ten minutes: the longest outage a control may ask for (a timer, not a test of patience). */
export const SIMULATOR_MAX_DELAY_MS = 600_000;
const delayMsSchema = z.number().int().min(0).max(SIMULATOR_MAX_DELAY_MS);

export const simulatorDropSchema = z
  .object({
    cause: z.enum(DROP_CAUSES).optional().default('network'),
    /** After a `network` drop: how long until the connection comes back (default: the simulator's reconnect delay). */
    forMs: delayMsSchema.optional(),
  })
  .refine((v) => v.forMs === undefined || v.cause === 'network', { path: ['forMs'], message: 'Only a network drop comes back by itself' });

/** The simulated phone's send faults; an omitted field keeps its current value, 0 clears it. */
export const simulatorFaultsSchema = z.object({
  /** Each send waits this long before WhatsApp accepts it. */
  sendLatencyMs: delayMsSchema.optional(),
  /** The next N sends fail with a transient (retryable) error and record nothing. */
  failSends: z.number().int().min(0).max(1_000_000).optional(),
  /** The recipient's phone confirms each message sent from now on as delivered (ack 2) this long after WhatsApp took it; 0: never on its own. */
  deliverAfterMs: delayMsSchema.optional(),
  /** …and as read (ack 3) this long after it was delivered; 0: never on its own. */
  readAfterMs: delayMsSchema.optional(),
});
export type SimulatorFaultsInput = z.infer<typeof simulatorFaultsSchema>;
export type SimulatorFaults = { id: number; sendLatencyMs: number; failSends: number; deliverAfterMs: number; readAfterMs: number };

export const simulatorNumberSchema = z.object({ connectionId: idSchema, number: phoneDigitsSchema, exists: z.boolean() });
