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
