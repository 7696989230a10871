import { z } from 'zod';
import { idSchema, timestampSchema } from '../domain/common.ts';
import { FLOW_PHRASE_MATCH_MODES } from './phrase.ts';

// What the flowbuilder and flowcampaign calls answer (spec/03 §7; server/src/modules/flows/README.md):
// the one wire shape of a flow and of a phrase campaign, read alike by the server's dto, the web and
// the CLI. The graph itself travels as the editor saves it (`flowGraphSchema` reads it).

export const flowSchema = z.object({
  id: idSchema,
  name: z.string(),
  active: z.boolean().describe('An inactive flow starts no new conversation; running ones go on.'),
  userId: idSchema.nullable(),
  versionNo: z.number().int().nonnegative().describe('The latest saved version; 0 when the flow was never saved.'),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  version: z.number().int().nonnegative(),
});
export type Flow = z.infer<typeof flowSchema>;

/** The stored graph: nodes and edges (`connections`, spec/03 §7), as the editor saved them. */
export const storedFlowGraphSchema = z.object({ nodes: z.array(z.unknown()), connections: z.array(z.unknown()) });
export type StoredFlowGraph = z.infer<typeof storedFlowGraphSchema>;

/** GET /flowbuilder/flow/{id}: `{ flow: { …flow, flow: graph | null } }`; POST /flowbuilder/flow adds `warnings`. */
export const flowWithGraphSchema = flowSchema.extend({ flow: storedFlowGraphSchema.nullable() });
export type FlowWithGraph = z.infer<typeof flowWithGraphSchema>;

export const phraseCampaignSchema = z.object({
  id: idSchema,
  name: z.string(),
  flowId: idSchema,
  whatsappId: idSchema.nullable().describe('null: every connection of the company.'),
  phrase: z.string(),
  matchMode: z.enum(FLOW_PHRASE_MATCH_MODES),
  status: z.boolean(),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  version: z.number().int().nonnegative(),
});
export type PhraseCampaign = z.infer<typeof phraseCampaignSchema>;

export const FLOW_RUN_STATUSES = ['running', 'finished', 'stopped'] as const;

/** A ticket's conversation in a flow, as agents see it (GET /tickets/{id}/flow). */
export const ticketFlowRunSchema = z.object({
  id: idSchema,
  flowId: idSchema,
  flowName: z.string(),
  versionNo: z.number().int().positive().describe('The version of the flow the conversation runs (kept until it ends).'),
  status: z.enum(FLOW_RUN_STATUSES),
  endReason: z.string().nullable().describe('completed, handover, stopped or error once the run ended; null while it runs.'),
  nodeId: z.string().nullable().describe('The node the conversation is at (waiting there, or the last one run).'),
  nodeType: z.string().nullable(),
  nodeText: z.string().nullable().describe("The node's text as drawn (message, question, menu; variables not filled in), cut to 200 characters."),
  awaiting: z.enum(['menu', 'question', 'external']).nullable().describe('What the run waits for from the customer.'),
  deadline: timestampSchema.nullable().describe("The pending timer's due time (an interval, a menu's timeout)."),
  variables: z.record(z.string(), z.string()).describe("The answers collected by the flow's question nodes (and adapters), by name; a run starts with the answers of the ticket's earlier runs."),
  startedAt: timestampSchema,
  updatedAt: timestampSchema,
  endedAt: timestampSchema.nullable(),
});
export type TicketFlowRun = z.infer<typeof ticketFlowRunSchema>;

/** GET /tickets/{id}/flow: the ticket's latest run (running or ended), null when no flow ever ran in it. */
export const ticketFlowSchema = z.object({ run: ticketFlowRunSchema.nullable() });
export type TicketFlow = z.infer<typeof ticketFlowSchema>;
