// The OpenAPI documents of the simulator routes: the schemas their handlers parse (http/openapi/README.md).
import { DROP_CAUSES, simulatorAckSchema, simulatorBurstSchema, simulatorDropSchema, simulatorEditSchema, simulatorFaultsSchema, simulatorMessageSchema, simulatorNumberSchema, simulatorOutboxQuerySchema, simulatorRevokeSchema, simulatorScanSchema, type SimulatorFaults } from '@zapdesk/sync';
import { z } from 'zod';
import type { OutboxEntry } from '../../channels/simulator/channel.ts';
import { area } from '../../http/openapi/types.ts';

const simulatorFaultsAnswerSchema: z.ZodType<SimulatorFaults> = z.object({ id: z.number().int(), sendLatencyMs: z.number().int(), failSends: z.number().int(), deliverAfterMs: z.number().int(), readAfterMs: z.number().int() });
const outboxEntrySchema: z.ZodType<OutboxEntry> = z.object({
  id: z.string(),
  to: z.string(),
  kind: z.enum(['text', 'media', 'location', 'vcard']),
  body: z.string(),
  mediaType: z.string().optional(),
  fileName: z.string().optional(),
  mimeType: z.string().optional(),
  size: z.number().int().optional(),
  location: z.object({ latitude: z.number(), longitude: z.number(), description: z.string().optional() }).optional(),
  vcard: z.string().optional(),
  quotedId: z.string().optional(),
  ack: z.literal([0, 1, 2, 3, 4, 5]),
  timestamp: z.string(),
  deleted: z.boolean(),
});

export const simulatorDocs = area('Simulator', "The built-in fake WhatsApp network (only with SIMULATOR=1): pair a connection, play the customer, read what the platform sent, inject faults, set how the recipients' phones confirm what they get.", {
  'POST /simulator/connections/:id/scan': { summary: "Scan the connection's QR code on the simulated phone", answer: z.object({ id: z.number().int(), status: z.string().optional() }), auth: ['bearer'], params: { id: 'ERR_NO_WAPP_FOUND' }, body: simulatorScanSchema, guarded: true, errors: ['ERR_WAPP_NOT_INITIALIZED'] },
  'POST /simulator/connections/:id/drop': { summary: 'Drop the connection (a network loss, a logout…)', answer: z.object({ id: z.number().int(), cause: z.enum(DROP_CAUSES), forMs: z.number().int().optional().describe('A network drop: when it comes back'), status: z.string().optional() }), auth: ['bearer'], params: { id: 'ERR_NO_WAPP_FOUND' }, body: simulatorDropSchema, guarded: true, errors: ['ERR_WAPP_NOT_INITIALIZED'] },
  'POST /simulator/connections/:id/faults': { summary: "Set the simulated phone's faults (slow or failing sends)", answer: simulatorFaultsAnswerSchema, auth: ['bearer'], params: { id: 'ERR_NO_WAPP_FOUND' }, body: simulatorFaultsSchema, guarded: true },
  'POST /simulator/connections/:id/messages': { summary: 'Customers write several messages that arrive together (a burst, up to 500)', answer: z.object({ ids: z.array(z.string()).describe('The WhatsApp ids, in the order given') }), auth: ['bearer'], params: { id: 'ERR_NO_WAPP_FOUND' }, body: simulatorBurstSchema, guarded: true },
  'POST /simulator/messages': { summary: 'A customer writes to the connection', answer: z.object({ id: z.string().describe('The WhatsApp id of the message') }), auth: ['bearer'], body: simulatorMessageSchema, guarded: true, errors: ['ERR_NO_WAPP_FOUND'] },
  'POST /simulator/edits': { summary: 'A customer edits a message', answer: z.object({ id: z.string(), kind: z.enum(['edit', 'revoke']) }), auth: ['bearer'], body: simulatorEditSchema, guarded: true, errors: ['ERR_NOT_FOUND'] },
  'POST /simulator/revokes': { summary: 'A customer deletes a message for everyone', answer: z.object({ id: z.string(), kind: z.enum(['edit', 'revoke']) }), auth: ['bearer'], body: simulatorRevokeSchema, guarded: true, errors: ['ERR_NO_WAPP_FOUND'] },
  'GET /simulator/outbox': { summary: 'What the platform sent through the connection, oldest first', answer: z.array(outboxEntrySchema), auth: ['bearer'], query: simulatorOutboxQuerySchema, guarded: true, errors: ['ERR_NO_WAPP_FOUND'] },
  'POST /simulator/acks': { summary: 'The customer receives, reads or plays a message', answer: outboxEntrySchema, auth: ['bearer'], body: simulatorAckSchema, guarded: true, errors: ['ERR_NOT_FOUND'] },
  'POST /simulator/numbers': { summary: 'Say whether a number is on WhatsApp', answer: simulatorNumberSchema.extend({ number: z.string() }), auth: ['bearer'], body: simulatorNumberSchema, guarded: true },
});
